import Foundation
import LatchkeyAPI
import WebAuthn

/// A client of Latchkey's native API under `/v1`: ticket-bound passkey sign-up and sign-in, the session,
/// the user's passkeys, and account deletion.
///
/// A successful sign-up or sign-in keeps the session token and sends it as `Authorization: Bearer` on
/// later calls; ``sessionToken`` reads it, ``setSessionToken(_:)`` restores a saved one.
///
/// ```swift
/// let client = NativeClient(server: URL(string: "https://example.com")!)
/// let session = try await client.signUp(username: "alice", with: authenticator)
/// let passkeys = try await client.passkeys()
/// ```
public struct NativeClient: Sendable {
    private let connection: APIConnection

    /// A client of the server at `server`, over `transport`.
    public init(server: URL, transport: any HTTPTransport = URLSessionTransport()) {
        connection = APIConnection(server: server, transport: transport, readError: Self.readError)
    }

    /// The session token from the last sign-up or sign-in, if any.
    public var sessionToken: String? {
        get async { await connection.bearerToken }
    }

    /// Uses `token` (saved from an earlier session) for the calls that need a signed-in user; nil forgets it.
    public func setSessionToken(_ token: String?) async {
        await connection.setBearerToken(token)
    }

    // MARK: Ceremonies

    /// The outcome of a sign-up or sign-in: the session and the credential the authenticator produced.
    public struct SignedIn<Credential: Sendable>: Sendable {
        public let session: SessionResponse
        public let credential: Credential
    }

    /// Creates an account for `username` with a first passkey from `authenticator`, and signs in.
    @discardableResult
    public func signUp(
        username: String, displayName: String? = nil, with authenticator: any Authenticator
    ) async throws(LatchkeyClientError) -> SignedIn<RegistrationCredential> {
        let started = try await registrationOptions(RegistrationOptionsRequest(username: username, displayName: displayName))
        let credential = try await Self.create(started.options, with: authenticator)
        let session = try await registrationVerify(RegistrationVerifyRequest(ticket: started.ticket, credential: credential))
        return SignedIn(session: session, credential: credential)
    }

    /// Signs in with a passkey from `authenticator`: for `username`, or username-less when nil.
    @discardableResult
    public func signIn(
        username: String? = nil, with authenticator: any Authenticator
    ) async throws(LatchkeyClientError) -> SignedIn<AuthenticationCredential> {
        let started = try await authenticationOptions(AuthenticationOptionsRequest(username: username))
        let credential: AuthenticationCredential
        do {
            credential = try await authenticator.authenticate(options: started.options)
        } catch {
            throw .authenticator(error)
        }
        let session = try await authenticationVerify(AuthenticationVerifyRequest(ticket: started.ticket, credential: credential))
        return SignedIn(session: session, credential: credential)
    }

    /// Adds a passkey from `authenticator` to the signed-in account, labelled `name`.
    @discardableResult
    public func addPasskey(name: String? = nil, with authenticator: any Authenticator) async throws(LatchkeyClientError) -> PasskeySummary {
        let started = try await addPasskeyOptions(AddPasskeyOptionsRequest(name: name))
        let credential = try await Self.create(started.options, with: authenticator)
        return try await addPasskeyVerify(RegistrationVerifyRequest(ticket: started.ticket, credential: credential))
    }

    private static func create(
        _ options: PublicKeyCredentialCreationOptions, with authenticator: any Authenticator
    ) async throws(LatchkeyClientError) -> RegistrationCredential {
        do {
            return try await authenticator.register(options: options)
        } catch {
            throw .authenticator(error)
        }
    }

    // MARK: Endpoints

    /// `POST /v1/passkeys/registration/options`.
    public func registrationOptions(_ request: RegistrationOptionsRequest) async throws(LatchkeyClientError) -> RegistrationOptionsResponse {
        try await connection.send("POST", APIPaths.Native.registrationOptions, body: request, as: RegistrationOptionsResponse.self)
    }

    /// `POST /v1/passkeys/registration/verify`; keeps the session.
    public func registrationVerify(_ request: RegistrationVerifyRequest) async throws(LatchkeyClientError) -> SessionResponse {
        try await signedIn(connection.send("POST", APIPaths.Native.registrationVerify, body: request, as: SessionResponse.self))
    }

    /// `POST /v1/passkeys/authentication/options`.
    public func authenticationOptions(_ request: AuthenticationOptionsRequest) async throws(LatchkeyClientError) -> AuthenticationOptionsResponse {
        try await connection.send("POST", APIPaths.Native.authenticationOptions, body: request, as: AuthenticationOptionsResponse.self)
    }

    /// `POST /v1/passkeys/authentication/verify`; keeps the session.
    public func authenticationVerify(_ request: AuthenticationVerifyRequest) async throws(LatchkeyClientError) -> SessionResponse {
        try await signedIn(connection.send("POST", APIPaths.Native.authenticationVerify, body: request, as: SessionResponse.self))
    }

    /// `POST /v1/apple/nonce`: a single-use nonce for one Sign in with Apple. Start the Apple request with it
    /// (`SignInWithAppleRequest(nonce: SignInWithAppleNonce(raw: response.nonce))`) and sign in before `expiresAt`;
    /// the server accepts only nonces it issued, each once.
    public func appleNonce() async throws(LatchkeyClientError) -> AppleNonceResponse {
        try await connection.send("POST", APIPaths.Apple.nonce, body: NoBody?.none, as: AppleNonceResponse.self)
    }

    /// `POST /v1/apple/signin`: signs in with Sign in with Apple (or, with a session, links the Apple ID to the
    /// signed-in account); keeps the session. Build `request` with ``AppleIDCredential/signInRequest(rawNonce:)``.
    public func signInWithApple(_ request: AppleSignInRequest) async throws(LatchkeyClientError) -> SessionResponse {
        try await signedIn(connection.send("POST", APIPaths.Apple.signIn, body: request, as: SessionResponse.self))
    }

    /// `GET /v1/me`: the signed-in user.
    public func me() async throws(LatchkeyClientError) -> UserProfile {
        try await connection.send("GET", APIPaths.Native.me, body: NoBody?.none, as: UserProfile.self)
    }

    /// `GET /v1/me/passkeys`: the signed-in user's passkeys, oldest first.
    public func passkeys() async throws(LatchkeyClientError) -> [PasskeySummary] {
        try await connection.send("GET", APIPaths.Native.passkeys, body: NoBody?.none, as: PasskeyList.self).passkeys
    }

    /// `PATCH /v1/me/passkeys/{id}`: renames a passkey (nil clears the name).
    @discardableResult
    public func renamePasskey(id: String, to name: String?) async throws(LatchkeyClientError) -> PasskeySummary {
        try await connection.send("PATCH", APIPaths.Native.passkey(id: id), body: RenamePasskeyRequest(name: name), as: PasskeySummary.self)
    }

    /// `DELETE /v1/me/passkeys/{id}`.
    public func deletePasskey(id: String) async throws(LatchkeyClientError) {
        try await connection.exchange("DELETE", APIPaths.Native.passkey(id: id), body: NoBody?.none)
    }

    /// `POST /v1/me/passkeys/registration/options`.
    public func addPasskeyOptions(_ request: AddPasskeyOptionsRequest) async throws(LatchkeyClientError) -> RegistrationOptionsResponse {
        try await connection.send("POST", APIPaths.Native.addPasskeyOptions, body: request, as: RegistrationOptionsResponse.self)
    }

    /// `POST /v1/me/passkeys/registration/verify`.
    public func addPasskeyVerify(_ request: RegistrationVerifyRequest) async throws(LatchkeyClientError) -> PasskeySummary {
        try await connection.send("POST", APIPaths.Native.addPasskeyVerify, body: request, as: PasskeySummary.self)
    }

    /// `POST /v1/session/logout`: ends the session and forgets its token.
    public func logout() async throws(LatchkeyClientError) {
        try await connection.exchange("POST", APIPaths.Native.logout, body: NoBody?.none)
        await connection.setBearerToken(nil)
    }

    /// `DELETE /v1/account`: deletes the signed-in account with its passkeys and sessions.
    public func deleteAccount() async throws(LatchkeyClientError) {
        try await connection.exchange("DELETE", APIPaths.Native.account, body: NoBody?.none)
        await connection.setBearerToken(nil)
    }

    // MARK: Helpers

    private func signedIn(_ response: SessionResponse) async -> SessionResponse {
        await connection.setBearerToken(response.session.token)
        return response
    }

    /// `{"error":{"code":"…","message":"…"}}`.
    @Sendable
    static func readError(status: Int, body: [UInt8]) -> (code: String, message: String)? {
        guard let body = try? APIJSON.makeDecoder().decode(APIErrorBody.self, from: Data(body)) else { return nil }
        return (body.error.code, body.error.message)
    }
}
