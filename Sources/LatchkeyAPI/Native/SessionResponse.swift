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

    public init(session: Session, user: UserProfile) {
        self.session = session
        self.user = user
    }
}

/// A user as the API shows it: `GET /v1/me` and the `user` of a ``SessionResponse``.
public struct UserProfile: Codable, Hashable, Sendable {
    /// The server's id of the account (a UUID string).
    public var id: String
    public var name: String
    public var displayName: String

    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}
