import Foundation
import LatchkeyAPI
import NIOCore
import Testing
import VirtualAuthenticator
import WebAuthn

/// Drives the native API's ceremonies with a virtual authenticator, as an app or a web page would.
struct NativeClient: Sendable {
    let http: HTTPSession
    var origin: String = ServerHarness.origin

    /// Sign-up: options, create, verify. Returns the verify reply.
    func signUp(
        _ username: String, displayName: String? = nil, with authenticator: VirtualAuthenticator,
        tampering: Tampering = .none,
        edit: @Sendable (inout [String: Any]) -> Void = { _ in }
    ) async throws -> Reply {
        let reply = try await http.send(
            .post, APIPaths.Native.registrationOptions,
            json: RegistrationOptionsRequest(username: username, displayName: displayName))
        #expect(reply.status == .ok, "\(reply)")
        let options: RegistrationOptionsResponse = try reply.decode()
        let credential = try await authenticator.register(
            options: options.options, origin: origin, tampering: tampering)
        return try await http.send(
            .post, APIPaths.Native.registrationVerify,
            body: verifyBody(ticket: options.ticket, credential: credential, edit: edit))
    }

    /// Sign-in (username-less without a username). Returns the verify reply.
    func signIn(
        _ username: String? = nil, with authenticator: VirtualAuthenticator, choice: CredentialChoice = .mostRecent,
        tampering: Tampering = .none, edit: @Sendable (inout [String: Any]) -> Void = { _ in }
    ) async throws -> Reply {
        let reply = try await http.send(
            .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: username))
        #expect(reply.status == .ok, "\(reply)")
        let options: AuthenticationOptionsResponse = try reply.decode()
        let credential = try await authenticator.authenticate(
            options: options.options, origin: origin, choice: choice, tampering: tampering)
        return try await http.send(
            .post, APIPaths.Native.authenticationVerify,
            body: verifyBody(ticket: options.ticket, credential: credential, edit: edit))
    }

    /// Adds a passkey to the signed-in account. Returns the verify reply.
    func addPasskey(name: String? = nil, with authenticator: VirtualAuthenticator) async throws -> Reply {
        let reply = try await http.send(
            .post, APIPaths.Native.addPasskeyOptions, json: AddPasskeyOptionsRequest(name: name))
        #expect(reply.status == .ok, "\(reply)")
        let options: RegistrationOptionsResponse = try reply.decode()
        let credential = try await authenticator.register(options: options.options, origin: origin)
        return try await http.send(
            .post, APIPaths.Native.addPasskeyVerify,
            json: RegistrationVerifyRequest(ticket: options.ticket, credential: credential))
    }

    private func verifyBody(ticket: String, credential: some Encodable, edit: (inout [String: Any]) -> Void) throws
        -> ByteBuffer
    {
        var envelope: [String: Any] = ["ticket": ticket, "credential": try JSONObject.encode(credential)]
        edit(&envelope)
        return try JSONObject.buffer(envelope)
    }
}

/// Drives the conformance profile's ceremonies with a virtual authenticator (the ceremony rides in a cookie).
struct ConformanceClient: Sendable {
    let http: HTTPSession
    var origin: String = ServerHarness.origin

    /// `/attestation/options` then `/attestation/result`; `edit` changes the credential JSON before it is sent.
    func register(
        _ request: ServerCreationOptionsRequest, with authenticator: VirtualAuthenticator, tampering: Tampering = .none,
        edit: @Sendable (inout [String: Any]) -> Void = { _ in }
    ) async throws -> Reply {
        let reply = try await http.send(.post, APIPaths.Conformance.attestationOptions, json: request)
        #expect(reply.status == .ok, "\(reply)")
        let options: ServerCreationOptionsResponse = try reply.decode()
        let credential = try await authenticator.register(
            options: options.options, origin: origin, tampering: tampering)
        var json = try JSONObject.encode(credential)
        edit(&json)
        return try await http.send(.post, APIPaths.Conformance.attestationResult, body: try JSONObject.buffer(json))
    }

    /// Registers `username` with default options.
    func register(
        _ username: String, with authenticator: VirtualAuthenticator,
        attestation: AttestationConveyancePreference? = nil
    ) async throws -> Reply {
        try await register(
            ServerCreationOptionsRequest(username: username, displayName: username, attestation: attestation),
            with: authenticator)
    }

    /// `/assertion/options` then `/assertion/result`.
    func login(
        _ username: String?, with authenticator: VirtualAuthenticator,
        userVerification: UserVerificationRequirement? = nil,
        tampering: Tampering = .none, edit: @Sendable (inout [String: Any]) -> Void = { _ in }
    ) async throws -> Reply {
        let reply = try await http.send(
            .post, APIPaths.Conformance.assertionOptions,
            json: ServerRequestOptionsRequest(username: username, userVerification: userVerification))
        #expect(reply.status == .ok, "\(reply)")
        let options: ServerRequestOptionsResponse = try reply.decode()
        let credential = try await authenticator.authenticate(
            options: options.options, origin: origin, tampering: tampering)
        var json = try JSONObject.encode(credential)
        edit(&json)
        return try await http.send(.post, APIPaths.Conformance.assertionResult, body: try JSONObject.buffer(json))
    }
}

/// JSON as Foundation objects, for tests that break a credential's JSON on purpose.
enum JSONObject {
    static func encode(_ value: some Encodable) throws -> [String: Any] {
        let data = try APIJSON.makeEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func buffer(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }
}

extension NativeClient {
    /// Signs up as `name` with `authenticator` and keeps the session's token as this client's Bearer header.
    @discardableResult
    func signUpKeepingSession(_ name: String, with authenticator: VirtualAuthenticator) async throws -> SessionResponse
    {
        let session: SessionResponse = try await signUp(name, with: authenticator).decode()
        await http.setBearer(session.session.token)
        return session
    }
}

extension ServerHarness {
    /// A new app client signed up as `name` with `authenticator`, its session's token in its Bearer header.
    func signedUpApp(_ name: String, with authenticator: VirtualAuthenticator) async throws -> NativeClient {
        let app = NativeClient(http: app())
        try await app.signUpKeepingSession(name, with: authenticator)
        return app
    }
}
