import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyServer
import VirtualAuthenticatorClient
import WebAuthn

/// One load-test user's sign-in spoken straight on the wire: the same two requests ``NativeClient`` and
/// ``ConformanceClient`` send, written as bytes, and of each answer only what the next step needs.
///
/// The server does exactly the work it does for an app: a fresh challenge, a real assertion from the user's
/// ``VirtualAuthenticator`` over it, the full verification and a new session. What this leaves out
/// is the client library's own cost, which on this machine shares the two cores with the server under test: decoding
/// every member of the options and of the session with `Codable`, encoding the credential with sorted keys, the
/// cookie jar and the actor hops (about a third of the load generator's CPU, docs/PERFORMANCE.md).
/// `latchkey loadtest --driver client` still drives the client library.
struct WireSignIn: Sendable {
    let profile: PasskeyProfile
    let authenticator: VirtualAuthenticatorAdapter
    let transport: any HTTPTransport
    private let optionsURL: URL
    private let verifyURL: URL
    /// The options request's body, the same on every sign-in.
    private let optionsBody: [UInt8]

    /// The requests' headers, with the user agent of the client the profile stands for: an app on iOS (URLSession's
    /// form) or a browser. The server reads it for the session's device label, as it does for real clients.
    private let headers: [String: String]

    private static let appUserAgent = "LatchkeyLoad/1.0 CFNetwork/1568.100.1 Darwin/24.0.0"
    private static let browserUserAgent =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

    init(
        profile: PasskeyProfile, username: String, server: URL, authenticator: VirtualAuthenticatorAdapter,
        transport: any HTTPTransport
    ) {
        self.profile = profile
        self.authenticator = authenticator
        self.transport = transport
        var body = JSONWriter()
        body.object { json in json.member("username", username) }
        optionsBody = body.bytes
        let userAgent: String
        switch profile {
        case .native:
            userAgent = Self.appUserAgent
            optionsURL = server.appending(path: APIPaths.Native.authenticationOptions)
            verifyURL = server.appending(path: APIPaths.Native.authenticationVerify)
        case .conformance:
            userAgent = Self.browserUserAgent
            optionsURL = server.appending(path: APIPaths.Conformance.assertionOptions)
            verifyURL = server.appending(path: APIPaths.Conformance.assertionResult)
        }
        headers = ["Accept": "application/json", "Content-Type": "application/json", "User-Agent": userAgent]
    }

    /// One full login: the options, the authenticator's assertion over their challenge, and its verification.
    func signIn() async throws(LatchkeyClientError) {
        let started = try await post(optionsURL, body: optionsBody, cookie: nil)
        let (ticket, options) = try startedCeremony(started)
        let credential: AuthenticationCredential
        do {
            credential = try await authenticator.authenticate(options: options)
        } catch {
            throw .authenticator(error)
        }
        let body: [UInt8]
        do {
            body = try Self.verifyBody(ticket: ticket, credential: credential)
        } catch {
            throw .invalidRequest("the credential cannot be encoded: \(error)")
        }
        let finished = try await post(verifyURL, body: body, cookie: Self.cookie(started))
        try checkSignedIn(finished)
    }

    // MARK: The requests

    /// The verification request's body: the credential as the client library sends it, inside `{"ticket":…}` on the
    /// native API.
    static func verifyBody(ticket: String?, credential: AuthenticationCredential) throws -> [UInt8] {
        var json = JSONWriter()
        if let ticket {
            try json.object { json in
                json.key("credential")
                try write(credential, to: &json)
                json.member("ticket", ticket)
            }
        } else {
            try write(credential, to: &json)
        }
        return json.bytes
    }

    /// Extension outputs (none in a load test's sign-ins) go through `APIJSON`'s encoder, as the server writes them.
    private static func write(_ credential: AuthenticationCredential, to json: inout JSONWriter) throws {
        try json.object { json in
            json.member("authenticatorAttachment", credential.authenticatorAttachment?.rawValue)
            json.key("clientExtensionResults")
            if credential.clientExtensionResults.isEmpty {
                json.object { _ in }
            } else {
                try json.encoded(credential.clientExtensionResults)
            }
            json.member("id", credential.id)
            json.member("rawId", credential.rawId.base64URL)
            json.key("response")
            json.object { json in
                let response = credential.response
                json.member("authenticatorData", response.authenticatorData.base64URL)
                json.member("clientDataJSON", response.clientDataJSON.base64URL)
                json.member("signature", response.signature.base64URL)
                json.member("userHandle", response.userHandle?.base64URL)
            }
            json.member("type", credential.type.rawValue)
        }
    }

    /// The ceremony cookie of the conformance profile's options (`name=value` of each `Set-Cookie`), sent back with its
    /// result.
    private static func cookie(_ response: HTTPResponse) -> String? {
        guard !response.setCookies.isEmpty else { return nil }
        return response.setCookies.map { $0.prefix { $0 != ";" } }.joined(separator: "; ")
    }

    private func post(_ url: URL, body: [UInt8], cookie: String?) async throws(LatchkeyClientError) -> HTTPResponse {
        var headers = headers
        if let cookie { headers["Cookie"] = cookie }
        let response = try await transport.send(HTTPRequest(method: "POST", url: url, headers: headers, body: body))
        guard (200..<300).contains(response.status) else { throw refusal(response, url) }
        return response
    }

    // MARK: The answers

    /// The ticket (native) and the options the authenticator needs, from the options answer.
    private func startedCeremony(
        _ response: HTTPResponse
    ) throws(LatchkeyClientError) -> (ticket: String?, options: PublicKeyCredentialRequestOptions) {
        var ticket: String?
        var fields = RequestFields()
        var status: String?
        do throws(JSONReader.Failure) {
            var reader = JSONReader(response.body)
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                switch (profile, key) {
                case (.native, "ticket"): ticket = try reader.readString()
                case (.native, "options"):
                    try reader.readObject { reader, key throws(JSONReader.Failure) in
                        if try !fields.read(key, from: &reader) { try reader.skipValue() }
                    }
                case (.conformance, "status"): status = try reader.readString()
                case (.conformance, _): if try !fields.read(key, from: &reader) { try reader.skipValue() }
                default: try reader.skipValue()
                }
            }
            try reader.finish()
        } catch {
            throw .unexpectedResponse(
                status: response.status, "\(optionsURL.path()): the body cannot be read: \(error)")
        }
        if profile == .conformance, status != ServerStatus.ok.rawValue { throw refusal(response, optionsURL) }
        guard let options = fields.requestOptions, profile == .conformance || ticket != nil else {
            throw .unexpectedResponse(
                status: response.status, "\(optionsURL.path()): the body holds no ticket and challenge")
        }
        return (ticket, options)
    }

    /// Checks that the verification signed the user in: a session token on the native API, `"status":"ok"` on the
    /// conformance profile.
    private func checkSignedIn(_ response: HTTPResponse) throws(LatchkeyClientError) {
        var found: String?
        do throws(JSONReader.Failure) {
            var reader = JSONReader(response.body)
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                switch (profile, key) {
                case (.native, "session"):
                    try reader.readObject { reader, key throws(JSONReader.Failure) in
                        if key == "token" { found = try reader.readString() } else { try reader.skipValue() }
                    }
                case (.conformance, "status"): found = try reader.readString()
                default: try reader.skipValue()
                }
            }
            try reader.finish()
        } catch {
            throw .unexpectedResponse(status: response.status, "\(verifyURL.path()): the body cannot be read: \(error)")
        }
        switch profile {
        case .native:
            guard let token = found, !token.isEmpty else {
                throw .unexpectedResponse(status: response.status, "\(verifyURL.path()): the body holds no session")
            }
        case .conformance:
            guard found == ServerStatus.ok.rawValue else { throw refusal(response, verifyURL) }
        }
    }

    /// The server's refusal as the client library reports it: its code and message, or the start of the body.
    private func refusal(_ response: HTTPResponse, _ url: URL) -> LatchkeyClientError {
        let readError = profile == .native ? NativeClient.readError : ConformanceClient.readError
        if let error = readError(response.status, response.body) { return error }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
        return .unexpectedResponse(status: response.status, "POST \(url.path()): \(text.isEmpty ? "no body" : text)")
    }
}

/// The members of request options a virtual authenticator reads; the rest of the answer is skipped.
private struct RequestFields {
    var challenge: [UInt8]?
    var rpId: String?
    var allowCredentials: [PublicKeyCredentialDescriptor] = []
    var userVerification: UserVerificationRequirement?

    /// Reads the value of `key` when it is one of these members; false, having read nothing, when it is not.
    mutating func read(_ key: String, from reader: inout JSONReader) throws(JSONReader.Failure) -> Bool {
        switch key {
        case "challenge": challenge = try Self.base64(&reader, key)
        case "rpId": rpId = try reader.readString()
        case "userVerification": userVerification = UserVerificationRequirement(rawValue: try reader.readString())
        case "allowCredentials":
            try reader.readArray { reader throws(JSONReader.Failure) in
                try reader.readObject { reader, key throws(JSONReader.Failure) in
                    if key == "id" {
                        let id = try Self.base64(&reader, "allowCredentials.id")
                        allowCredentials.append(PublicKeyCredentialDescriptor(id: id))
                    } else {
                        try reader.skipValue()
                    }
                }
            }
        default: return false
        }
        return true
    }

    /// The options, when the answer held a challenge.
    var requestOptions: PublicKeyCredentialRequestOptions? {
        challenge.map { challenge in
            PublicKeyCredentialRequestOptions(
                challenge: challenge, rpId: rpId, allowCredentials: allowCredentials.isEmpty ? nil : allowCredentials,
                userVerification: userVerification
            )
        }
    }

    private static func base64(_ reader: inout JSONReader, _ name: String) throws(JSONReader.Failure) -> [UInt8] {
        guard let bytes = try reader.readBase64() else {
            throw JSONReader.Failure(description: "'\(name)' is not base64url", isBase64Failure: true)
        }
        return bytes
    }
}
