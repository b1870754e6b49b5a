import Foundation
import LatchkeyAPI
import WebAuthn

/// A client of the FIDO conformance profile (`/attestation/*`, `/assertion/*`), the API the iOS sample
/// apps and FIDO conformance tools speak; the server keeps the ceremony in a cookie, which this client
/// holds and sends back.
///
/// ```swift
/// let client = ConformanceClient(server: URL(string: "https://example.com")!)
/// try await client.register(username: "alice", displayName: "Alice", with: authenticator)
/// try await client.authenticate(username: "alice", with: authenticator)
/// ```
public struct ConformanceClient: Sendable {
    private let connection: APIConnection

    /// A client of the server at `server`, over `transport`.
    ///
    /// The conformance profile is the browser's API: after a ceremony the server signs the client in with a
    /// session cookie. The server refuses cross-origin browser requests (by `Sec-Fetch-Site` and `Origin`) but
    /// lets a client that sends neither header through, so an app needs no `origin`. Pass one only to act as a
    /// page would; it must then be one of the server's web origins (or name the server's host), otherwise
    /// state-changing requests are refused with `request.originNotAllowed`.
    public init(server: URL, transport: any HTTPTransport = URLSessionTransport(), origin: String? = nil) {
        connection = APIConnection(server: server, transport: transport, origin: origin, readError: Self.readError)
    }

    // MARK: Ceremonies

    /// Registers a new passkey for `username`: options, the authenticator, result.
    /// - Returns: the credential the server accepted.
    @discardableResult
    public func register(
        username: String, displayName: String, with authenticator: any Authenticator,
        authenticatorSelection: AuthenticatorSelectionCriteria? = nil,
        attestation: AttestationConveyancePreference? = nil
    ) async throws(LatchkeyClientError) -> RegistrationCredential {
        let options = try await attestationOptions(
            ServerCreationOptionsRequest(
                username: username, displayName: displayName, authenticatorSelection: authenticatorSelection,
                attestation: attestation
            ))
        let credential: RegistrationCredential
        do {
            credential = try await authenticator.register(options: options)
        } catch {
            throw .authenticator(error)
        }
        try await attestationResult(credential)
        return credential
    }

    /// Signs in: options for `username` (nil for a username-less sign-in), the authenticator, result.
    /// - Returns: the assertion the server accepted.
    @discardableResult
    public func authenticate(
        username: String?, with authenticator: any Authenticator, userVerification: UserVerificationRequirement? = nil
    ) async throws(LatchkeyClientError) -> AuthenticationCredential {
        let options = try await assertionOptions(
            ServerRequestOptionsRequest(username: username, userVerification: userVerification))
        let credential: AuthenticationCredential
        do {
            credential = try await authenticator.authenticate(options: options)
        } catch {
            throw .authenticator(error)
        }
        try await assertionResult(credential)
        return credential
    }

    // MARK: Endpoints

    /// `POST /attestation/options`: the creation options in the response.
    ///
    /// The body is read as a `ServerResponse` and as L3 creation options, so servers that leave
    /// out members Latchkey's `ServerCreationOptionsResponse` always sends (`attestation`,
    /// `authenticatorSelection`) work too.
    public func attestationOptions(_ request: ServerCreationOptionsRequest) async throws(LatchkeyClientError)
        -> PublicKeyCredentialCreationOptions
    {
        try await options(APIPaths.Conformance.attestationOptions, request, as: PublicKeyCredentialCreationOptions.self)
    }

    /// `POST /attestation/result`.
    @discardableResult
    public func attestationResult(_ credential: ServerAttestationResultRequest) async throws(LatchkeyClientError)
        -> ServerResponse
    {
        try Self.checked(
            await connection.send(
                "POST", APIPaths.Conformance.attestationResult, body: credential, as: ServerResponse.self))
    }

    /// `POST /assertion/options`: the request options in the response (an empty `allowCredentials` is
    /// a username-less request).
    public func assertionOptions(_ request: ServerRequestOptionsRequest) async throws(LatchkeyClientError)
        -> PublicKeyCredentialRequestOptions
    {
        var options = try await options(
            APIPaths.Conformance.assertionOptions, request, as: PublicKeyCredentialRequestOptions.self)
        if options.allowCredentials?.isEmpty == true { options.allowCredentials = nil }
        return options
    }

    /// Posts an options request; checks `status` and decodes the options members of the same body.
    private func options<Request: Encodable & Sendable, Options: Decodable>(
        _ path: String, _ request: Request, as type: Options.Type
    ) async throws(LatchkeyClientError) -> Options {
        let response = try await connection.exchange("POST", path, body: request)
        let decoder = APIJSON.makeDecoder()
        guard let status = try? decoder.decode(ServerResponse.self, from: Data(response.body)) else {
            throw .unexpectedResponse(status: response.status, "\(path): the body is not a conformance ServerResponse")
        }
        _ = try Self.checked(status)
        do {
            return try decoder.decode(Options.self, from: Data(response.body))
        } catch {
            throw .unexpectedResponse(status: response.status, "\(path): the body holds no \(Options.self): \(error)")
        }
    }

    /// `POST /assertion/result`.
    @discardableResult
    public func assertionResult(_ credential: ServerAssertionResultRequest) async throws(LatchkeyClientError)
        -> ServerResponse
    {
        try Self.checked(
            await connection.send(
                "POST", APIPaths.Conformance.assertionResult, body: credential, as: ServerResponse.self))
    }

    // MARK: Errors

    /// A `status: failed` answer, even with a 2xx status, is an error.
    private static func checked(_ response: ServerResponse) throws(LatchkeyClientError) -> ServerResponse {
        guard response.status == .ok else {
            throw .server(status: 200, code: response.errorCode ?? "failed", message: response.errorMessage)
        }
        return response
    }

    /// `{"status":"failed","errorMessage":"…","errorCode":"…"}`; servers without `errorCode` get the code `failed`.
    @Sendable
    package static func readError(status: Int, body: [UInt8]) -> LatchkeyClientError? {
        guard let response = try? APIJSON.makeDecoder().decode(ServerResponse.self, from: Data(body)) else {
            return nil
        }
        return .server(status: status, code: response.errorCode ?? "failed", message: response.errorMessage)
    }
}
