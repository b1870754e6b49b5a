import Foundation

/// The answer to every successful sign-in or sign-up:
/// `{"session":{"token":"…","expiresAt":"…"},"user":{"id":"…","name":"…","displayName":"…"}}`.
///
/// Apps send the token back as `Authorization: Bearer <token>`; browsers get the same session as an HttpOnly cookie.
public struct SessionResponse: Codable, Hashable, Sendable {
    public struct Session: Codable, Hashable, Sendable {
        /// The opaque session token (base64url of 32 random bytes). The server keeps only its SHA-256.
        public var token: String
        public var expiresAt: Date

        public init(token: String, expiresAt: Date) {
            self.token = token
            self.expiresAt = expiresAt
        }
    }

    public var session: Session
    public var user: UserProfile
    /// The signed-in user's accepted credentials and names, for the WebAuthn signal API (passkey and password
    /// sign-ins and sign-ups; absent elsewhere).
    public var signals: CredentialSignals?
    /// After a password sign-in (or sign-up) of an account without a passkey: a registration ceremony for a
    /// *conditional* create (`mediation: "conditional"`, the automatic passkey upgrade). Finish it with
    /// `POST /v1/me/passkeys/registration/verify` and the session; it accepts authenticator data without UP.
    public var passkeyUpgrade: RegistrationOptionsResponse?
    /// An access token for other services and its refresh token, when the server issues them (`--access-token-audience`).
    public var accessToken: AccessTokenResponse?

    public init(
        session: Session, user: UserProfile, signals: CredentialSignals? = nil,
        passkeyUpgrade: RegistrationOptionsResponse? = nil, accessToken: AccessTokenResponse? = nil
    ) {
        self.session = session
        self.user = user
        self.signals = signals
        self.passkeyUpgrade = passkeyUpgrade
        self.accessToken = accessToken
    }
}

/// A user as the API shows it: `GET /v1/me` and the `user` of a ``SessionResponse``.
public struct UserProfile: Codable, Hashable, Sendable {
    /// The server's id of the account (a UUID string).
    public var id: String
    public var name: String
    public var displayName: String
    /// The account's ways in (`GET /v1/me` only).
    public var signInMethods: SignInMethods?

    public init(id: String, name: String, displayName: String, signInMethods: SignInMethods? = nil) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.signInMethods = signInMethods
    }
}
