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
    /// Receives the ``PasskeySignal``s the server's answers carry, for the user's password manager.
    public typealias SignalSink = @Sendable ([PasskeySignal]) async -> Void

    private let connection: APIConnection
    private let signals: SignalSink?
    private let reauthenticator: (any Authenticator)?

    /// A client of the server at `server`, over `transport`.
    ///
    /// - Parameters:
    ///   - server: the server's base URL, e.g. `https://example.com`.
    ///   - transport: how requests are sent (URLSession by default).
    ///   - signals: called with what the password manager should learn after each answer that says: the
    ///     accepted credentials and current names after a sign-in, sign-up, list, rename or removal, and the unknown
    ///     credential after a sign-in the server refused with `credential.notFound`. On Apple platforms pass
    ///     `{ await PasskeySignalReporter.report($0) }` (iOS 26 / macOS 26); on the web the page calls the
    ///     `PublicKeyCredential.signal…` methods named by ``PasskeySignal/webMethod``.
    ///   - reauthenticator: the authenticator that answers a sensitive change's `reauth.required` (adding or removing a
    ///     passkey, the password, deleting the account, signing out everywhere): the client gets an assertion with user
    ///     verification from it, re-authenticates and retries the change once. Without one, or for an account without a
    ///     passkey, those calls throw ``LatchkeyClientError/reauthenticationRequired(_:)``.
    public init(
        server: URL, transport: any HTTPTransport = URLSessionTransport(), signals: SignalSink? = nil,
        reauthenticator: (any Authenticator)? = nil
    ) {
        connection = APIConnection(server: server, transport: transport, readError: Self.readError)
        self.signals = signals
        self.reauthenticator = reauthenticator
    }

    /// The session token from the last sign-up or sign-in, if any.
    public var sessionToken: String? {
        get async { await connection.bearerToken }
    }

    /// Uses `token` (saved from an earlier session) for the calls that need a signed-in user; nil forgets it.
    public func setSessionToken(_ token: String?) async {
        await connection.setBearerToken(token)
    }

    /// An access token for the app's other services (`Authorization: Bearer` to them), when the server issues them
    /// (`--access-token-audience`): the last sign-in's, or — within `margin` seconds of its expiry — a new one, for which
    /// the client spends its refresh token (`POST /v1/token`). Concurrent calls share one refresh. Nil when the server
    /// issued none; `token.reused` or `token.invalid` when the session has ended (sign in again).
    public func accessToken(margin: TimeInterval = 30) async throws(LatchkeyClientError) -> String? {
        try await connection.validAccessToken(now: Date(), margin: margin)
    }

    /// The access token and refresh token held now (to save them with the session token), or nil.
    public var accessTokens: AccessTokenResponse? {
        get async { await connection.accessToken }
    }

    /// Uses saved access and refresh tokens; nil forgets them.
    public func setAccessTokens(_ tokens: AccessTokenResponse?) async {
        await connection.setAccessToken(tokens)
    }

    // MARK: Ceremonies

    /// The outcome of a sign-up or sign-in: the session and the credential the authenticator produced.
    public struct SignedIn<Credential: Sendable>: Sendable {
        /// The server's answer: the session and the user.
        public let session: SessionResponse
        /// The credential the authenticator returned.
        public let credential: Credential
    }

    /// Creates an account for `username` with a first passkey from `authenticator`, and signs in.
    @discardableResult
    public func signUp(
        username: String, displayName: String? = nil, with authenticator: any Authenticator
    ) async throws(LatchkeyClientError) -> SignedIn<RegistrationCredential> {
        let started = try await registrationOptions(
            RegistrationOptionsRequest(username: username, displayName: displayName))
        let credential = try await Self.create(started.options, with: authenticator)
        let session = try await registrationVerify(
            RegistrationVerifyRequest(ticket: started.ticket, credential: credential))
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
        do {
            let session = try await authenticationVerify(
                AuthenticationVerifyRequest(ticket: started.ticket, credential: credential))
            return SignedIn(session: session, credential: credential)
        } catch {
            if case .server(_, "credential.notFound", _) = error, let rpID = started.options.rpId {
                await report([
                    .unknownCredential(relyingPartyIdentifier: rpID, credentialID: Data(credential.rawId.bytes))
                ])
            }
            throw error
        }
    }

    /// Adds a passkey from `authenticator` to the signed-in account, labelled `name`.
    @discardableResult
    public func addPasskey(name: String? = nil, with authenticator: any Authenticator) async throws(LatchkeyClientError)
        -> PasskeySummary
    {
        let started = try await reauthenticating { () async throws(LatchkeyClientError) in
            try await addPasskeyOptions(AddPasskeyOptionsRequest(name: name))
        }
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
    public func registrationOptions(_ request: RegistrationOptionsRequest) async throws(LatchkeyClientError)
        -> RegistrationOptionsResponse
    {
        try await connection.send(
            "POST", APIPaths.Native.registrationOptions, body: request, as: RegistrationOptionsResponse.self)
    }

    /// `POST /v1/passkeys/registration/verify`; keeps the session.
    public func registrationVerify(_ request: RegistrationVerifyRequest) async throws(LatchkeyClientError)
        -> SessionResponse
    {
        try await signedIn(
            connection.send("POST", APIPaths.Native.registrationVerify, body: request, as: SessionResponse.self))
    }

    /// `POST /v1/passkeys/account-creation/options`: options for a passkey sign-up sheet that asks for the account's
    /// name itself (iOS 26: `PasskeysManager.createAccount(options:acceptedContacts:requestsName:)`).
    public func accountCreationOptions() async throws(LatchkeyClientError) -> RegistrationOptionsResponse {
        try await connection.send(
            "POST", APIPaths.Native.accountCreationOptions, body: NoBody?.none, as: RegistrationOptionsResponse.self)
    }

    /// `POST /v1/passkeys/account-creation/verify`: creates the account named as the sheet collected it, with its
    /// passkey; keeps the session. A name already in use is `user.nameTaken`.
    public func accountCreationVerify(_ request: AccountCreationVerifyRequest) async throws(LatchkeyClientError)
        -> SessionResponse
    {
        try await signedIn(
            connection.send("POST", APIPaths.Native.accountCreationVerify, body: request, as: SessionResponse.self))
    }

    /// `POST /v1/passkeys/authentication/options`.
    public func authenticationOptions(_ request: AuthenticationOptionsRequest) async throws(LatchkeyClientError)
        -> AuthenticationOptionsResponse
    {
        try await connection.send(
            "POST", APIPaths.Native.authenticationOptions, body: request, as: AuthenticationOptionsResponse.self)
    }

    /// `POST /v1/passkeys/authentication/verify`; keeps the session.
    public func authenticationVerify(_ request: AuthenticationVerifyRequest) async throws(LatchkeyClientError)
        -> SessionResponse
    {
        try await signedIn(
            connection.send("POST", APIPaths.Native.authenticationVerify, body: request, as: SessionResponse.self))
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
        let list = try await connection.send("GET", APIPaths.Native.passkeys, body: NoBody?.none, as: PasskeyList.self)
        await report(list.signals)
        return list.passkeys
    }

    /// `PATCH /v1/me/passkeys/{id}`: renames a passkey (nil clears the name).
    @discardableResult
    public func renamePasskey(id: String, to name: String?) async throws(LatchkeyClientError) -> PasskeySummary {
        let renamed = try await connection.send(
            "PATCH", APIPaths.Native.passkey(id: id), body: RenamePasskeyRequest(name: name), as: PasskeySummary.self)
        await report(renamed.signals)
        return renamed
    }

    /// `DELETE /v1/me/passkeys/{id}` (re-authenticating when the server asks).
    public func deletePasskey(id: String) async throws(LatchkeyClientError) {
        let removal = try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.send(
                "DELETE", APIPaths.Native.passkey(id: id), body: NoBody?.none, as: PasskeyRemoval.self)
        }
        await report(removal.signals)
    }

    /// `POST /v1/me/passkeys/registration/options`.
    public func addPasskeyOptions(_ request: AddPasskeyOptionsRequest) async throws(LatchkeyClientError)
        -> RegistrationOptionsResponse
    {
        try await connection.send(
            "POST", APIPaths.Native.addPasskeyOptions, body: request, as: RegistrationOptionsResponse.self)
    }

    /// `POST /v1/me/passkeys/registration/verify`.
    public func addPasskeyVerify(_ request: RegistrationVerifyRequest) async throws(LatchkeyClientError)
        -> PasskeySummary
    {
        try await connection.send("POST", APIPaths.Native.addPasskeyVerify, body: request, as: PasskeySummary.self)
    }

    // MARK: Passwords

    /// `POST /v1/password/register`: creates an account whose way in is a password (15 to 128 characters), and
    /// keeps the session. The answer's `passkeyUpgrade`, when present, is a conditional registration ceremony: finish
    /// it with ``completePasskeyUpgrade(_:with:)``.
    public func passwordRegister(_ request: PasswordRegisterRequest) async throws(LatchkeyClientError)
        -> SessionResponse
    {
        try await signedIn(
            connection.send("POST", APIPaths.Native.passwordRegister, body: request, as: SessionResponse.self))
    }

    /// `POST /v1/password/signin`: signs in with a password and keeps the session. Wrong password and unknown user
    /// are both `password.invalid`; too many failures `password.throttled`.
    public func passwordSignIn(_ request: PasswordSignInRequest) async throws(LatchkeyClientError) -> SessionResponse {
        try await signedIn(
            connection.send("POST", APIPaths.Native.passwordSignIn, body: request, as: SessionResponse.self))
    }

    /// `PUT /v1/password`: sets the signed-in account's password, or changes it (then `currentPassword` is needed);
    /// re-authenticating when the server asks.
    public func setPassword(_ request: SetPasswordRequest) async throws(LatchkeyClientError) {
        try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.exchange("PUT", APIPaths.Native.password, body: request)
        }
    }

    /// `DELETE /v1/password`: removes the signed-in account's password (409 `password.lastWayIn` when it is the only
    /// way in); re-authenticating when the server asks.
    public func removePassword() async throws(LatchkeyClientError) {
        try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.exchange("DELETE", APIPaths.Native.password, body: NoBody?.none)
        }
    }

    /// Finishes a password sign-in's `passkeyUpgrade` with a passkey from `authenticator` (on a device, the system's
    /// conditional create: ``Authenticator/registerConditionally(options:)``, no prompt), through
    /// `POST /v1/me/passkeys/registration/verify`.
    ///
    /// Where the authenticator cannot create conditionally (`authenticator.unsupported`), or the password manager
    /// declined, offer an "Add a passkey" button that calls ``addPasskey(name:with:)``.
    @discardableResult
    public func completePasskeyUpgrade(
        _ upgrade: RegistrationOptionsResponse, with authenticator: any Authenticator
    ) async throws(LatchkeyClientError) -> PasskeySummary {
        let credential: RegistrationCredential
        do {
            credential = try await authenticator.registerConditionally(options: upgrade.options)
        } catch {
            throw .authenticator(error)
        }
        return try await addPasskeyVerify(RegistrationVerifyRequest(ticket: upgrade.ticket, credential: credential))
    }

    /// `POST /v1/session/logout`: ends the session and forgets its token.
    public func logout() async throws(LatchkeyClientError) {
        try await connection.exchange("POST", APIPaths.Native.logout, body: NoBody?.none)
        await connection.setBearerToken(nil)
    }

    /// `DELETE /v1/account`: deletes the signed-in account with its passkeys and sessions (re-authenticating when the
    /// server asks).
    public func deleteAccount() async throws(LatchkeyClientError) {
        try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.exchange("DELETE", APIPaths.Native.account, body: NoBody?.none)
        }
        await connection.setBearerToken(nil)
    }

    // MARK: Recovery

    /// `GET /v1/me/recovery-codes`: how many unused recovery codes the account has.
    public func recoveryCodesRemaining() async throws(LatchkeyClientError) -> Int {
        try await connection.send(
            "GET", APIPaths.Native.recoveryCodes, body: NoBody?.none, as: RecoveryCodeStatus.self
        ).remaining
    }

    /// `POST /v1/me/recovery-codes`: a new set of recovery codes for the user to keep (re-authenticating when the server
    /// asks). They are in this answer only; the old set stops working.
    public func generateRecoveryCodes() async throws(LatchkeyClientError) -> [String] {
        try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.send(
                "POST", APIPaths.Native.recoveryCodes, body: NoBody?.none, as: RecoveryCodes.self
            ).codes
        }
    }

    /// Recovers the account named `username` with one of its recovery codes: spends the code, registers a new passkey
    /// from `authenticator` and signs in (`POST /v1/recovery/options`, then `/v1/recovery/verify`). A wrong or used
    /// code is `recovery.invalid`.
    @discardableResult
    public func recover(username: String, code: String, with authenticator: any Authenticator)
        async throws(LatchkeyClientError) -> SignedIn<RegistrationCredential>
    {
        try await recover(RecoveryOptionsRequest(username: username, code: code), with: authenticator)
    }

    /// `POST /v1/recovery/email`: asks for a recovery code at `email`. The server answers the same whether or not an
    /// account has the address verified; the code arrives only if one has. Then ``recover(email:code:with:)``.
    public func requestRecoveryCode(email: String) async throws(LatchkeyClientError) {
        try await connection.exchange(
            "POST", APIPaths.Native.recoveryEmail, body: RecoveryEmailRequest(email: email) as RecoveryEmailRequest?)
    }

    /// Recovers the account whose verified address is `email` with the code sent to it: registers a new passkey from
    /// `authenticator` and signs in. A wrong, used or expired code is `recovery.invalid`.
    @discardableResult
    public func recover(email: String, code: String, with authenticator: any Authenticator)
        async throws(LatchkeyClientError) -> SignedIn<RegistrationCredential>
    {
        try await recover(RecoveryOptionsRequest(email: email, code: code), with: authenticator)
    }

    /// Recovers an account with the token of a recovery link an operator issued (`latchkey recovery-link`, or
    /// `POST /admin/v1/users/{id}/recovery-link`; the token is what follows `#recover=` in the link): registers a new
    /// passkey from `authenticator` and signs in. A used or expired token is `recovery.invalid`.
    @discardableResult
    public func recover(linkToken token: String, with authenticator: any Authenticator)
        async throws(LatchkeyClientError) -> SignedIn<RegistrationCredential>
    {
        try await recover(RecoveryOptionsRequest(token: token), with: authenticator)
    }

    /// `POST /v1/recovery/options` with `request`, then the new passkey from `authenticator` to `/v1/recovery/verify`.
    private func recover(_ request: RecoveryOptionsRequest, with authenticator: any Authenticator)
        async throws(LatchkeyClientError) -> SignedIn<RegistrationCredential>
    {
        let started = try await connection.send(
            "POST", APIPaths.Native.recoveryOptions, body: request, as: RegistrationOptionsResponse.self)
        let credential = try await Self.create(started.options, with: authenticator)
        let session = try await signedIn(
            connection.send(
                "POST", APIPaths.Native.recoveryVerify,
                body: RegistrationVerifyRequest(ticket: started.ticket, credential: credential),
                as: SessionResponse.self))
        return SignedIn(session: session, credential: credential)
    }

    // MARK: Email addresses

    /// `GET /v1/me/emails`: the account's addresses, the primary first.
    public func emails() async throws(LatchkeyClientError) -> [EmailAddress] {
        try await connection.send("GET", APIPaths.Native.emails, body: NoBody?.none, as: EmailList.self).emails
    }

    /// `POST /v1/me/emails`: adds `address` unverified and has a code sent to it (re-authenticating when the server
    /// asks); then ``verifyEmail(_:code:)``.
    @discardableResult
    public func addEmail(_ address: String) async throws(LatchkeyClientError) -> EmailAddress {
        try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.send(
                "POST", APIPaths.Native.emails, body: EmailRequest(address: address), as: EmailAddress.self)
        }
    }

    /// `POST /v1/me/emails/verify`: verifies an added address with the code sent to it.
    @discardableResult
    public func verifyEmail(_ address: String, code: String) async throws(LatchkeyClientError) -> EmailAddress {
        try await connection.send(
            "POST", APIPaths.Native.emailVerify, body: EmailVerifyRequest(address: address, code: code),
            as: EmailAddress.self)
    }

    /// `POST /v1/me/emails/primary`: notices go to this verified address from now on (re-authenticating when asked).
    @discardableResult
    public func makePrimaryEmail(_ address: String) async throws(LatchkeyClientError) -> [EmailAddress] {
        try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.send(
                "POST", APIPaths.Native.emailPrimary, body: EmailRequest(address: address), as: EmailList.self
            ).emails
        }
    }

    /// `POST /v1/me/emails/remove`: removes an address (re-authenticating when asked).
    public func removeEmail(_ address: String) async throws(LatchkeyClientError) {
        try await reauthenticating { () async throws(LatchkeyClientError) in
            _ = try await connection.exchange(
                "POST", APIPaths.Native.emailRemove, body: EmailRequest(address: address) as EmailRequest?)
        }
    }

    // MARK: Devices and re-authentication

    /// `GET /v1/sessions`: the account's live sessions (its devices), newest first.
    public func sessions() async throws(LatchkeyClientError) -> [SessionSummary] {
        try await connection.send("GET", APIPaths.Native.sessions, body: NoBody?.none, as: SessionList.self).sessions
    }

    /// `DELETE /v1/sessions/{id}`: ends one of the account's sessions (this one too: then its token is forgotten).
    public func endSession(id: String) async throws(LatchkeyClientError) {
        let current = try await sessions().first(where: \.current)?.id == id
        try await connection.exchange("DELETE", APIPaths.Native.session(id: id), body: NoBody?.none)
        if current { await connection.setBearerToken(nil) }
    }

    /// `DELETE /v1/sessions`: ends every session of the account, this one included (re-authenticating when the server
    /// asks); answers the ways in that remain.
    @discardableResult
    public func signOutEverywhere() async throws(LatchkeyClientError) -> SignInMethods {
        let answer = try await reauthenticating { () async throws(LatchkeyClientError) in
            try await connection.send(
                "DELETE", APIPaths.Native.sessions, body: NoBody?.none, as: SignedOutEverywhereResponse.self)
        }
        await connection.setBearerToken(nil)
        return answer.remainingSignInMethods
    }

    /// `POST /v1/session/reauthenticate`: proves the user again with a passkey from `authenticator` over the options of
    /// a `reauth.required`, and keeps the new session (the old one has ended).
    @discardableResult
    public func reauthenticate(_ options: ReauthenticationOptions, with authenticator: any Authenticator)
        async throws(LatchkeyClientError) -> SessionResponse
    {
        guard let passkey = options.passkey else { throw .reauthenticationRequired(options) }
        let credential: AuthenticationCredential
        do {
            credential = try await authenticator.authenticate(options: passkey.options)
        } catch {
            throw .authenticator(error)
        }
        return try await signedIn(
            connection.send(
                "POST", APIPaths.Native.reauthenticate,
                body: AuthenticationVerifyRequest(ticket: passkey.ticket, credential: credential),
                as: SessionResponse.self))
    }

    /// `POST /v1/session/reauthenticate/password`: proves the user again with the account's password, and keeps the
    /// new session.
    @discardableResult
    public func reauthenticate(password: String) async throws(LatchkeyClientError) -> SessionResponse {
        try await signedIn(
            connection.send(
                "POST", APIPaths.Native.reauthenticatePassword, body: ReauthenticatePasswordRequest(password: password),
                as: SessionResponse.self))
    }

    /// Runs a sensitive change; on `reauth.required` with a passkey way and a ``reauthenticator``, re-authenticates and
    /// runs it once more.
    private func reauthenticating<Result: Sendable>(
        _ change: () async throws(LatchkeyClientError) -> Result
    ) async throws(LatchkeyClientError) -> Result {
        do {
            return try await change()
        } catch {
            guard case .reauthenticationRequired(let options) = error, options.passkey != nil, let reauthenticator
            else { throw error }
            try await reauthenticate(options, with: reauthenticator)
            return try await change()
        }
    }

    // MARK: Helpers

    private func signedIn(_ response: SessionResponse) async -> SessionResponse {
        await connection.setBearerToken(response.session.token)
        await connection.setAccessToken(response.accessToken)
        await report(response.signals)
        return response
    }

    /// Hands the signals of an answer to the sink, when there is one.
    private func report(_ answer: CredentialSignals?) async {
        guard let answer else { return }
        await report(PasskeySignal.accountState(answer))
    }

    private func report(_ list: [PasskeySignal]) async {
        guard let signals, !list.isEmpty else { return }
        await signals(list)
    }

    /// `{"error":{"code":"…","message":"…"}}`.
    @Sendable
    package static func readError(status: Int, body: [UInt8]) -> LatchkeyClientError? {
        guard let body = try? APIJSON.makeDecoder().decode(APIErrorBody.self, from: Data(body)) else { return nil }
        if let options = body.error.reauthentication { return .reauthenticationRequired(options) }
        return .server(status: status, code: body.error.code, message: body.error.message)
    }
}
