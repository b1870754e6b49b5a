import Foundation

/// A key that signs access tokens (ES256). Keys come in generations: the server makes the next one before the current one
/// is due to stop signing, publishes it at once and signs with it from ``signsFrom``; every instance reads them from the
/// store. The private key is sealed (encrypted) by the server before it is stored.
public struct StoredSigningKey: Sendable, Hashable {
    /// 1 for the first key, one more for each next: two instances making the same generation at once store one.
    public var generation: Int
    /// The JWK `kid`.
    public var keyID: String
    /// The private key, sealed with the server's secrets key.
    public var sealedPrivateKey: Data
    /// The public key as a JWK (JSON text), as `/.well-known/jwks.json` lists it.
    public var publicJWK: String
    public var createdAt: Date
    /// When it starts to sign (until then it is only published).
    public var signsFrom: Date

    public init(
        generation: Int, keyID: String, sealedPrivateKey: Data, publicJWK: String, createdAt: Date, signsFrom: Date
    ) {
        self.generation = generation
        self.keyID = keyID
        self.sealedPrivateKey = sealedPrivateKey
        self.publicJWK = publicJWK
        self.createdAt = createdAt
        self.signsFrom = signsFrom
    }
}

/// A refresh token: opaque to the client, kept as its SHA-256, bound to a session (it dies with it) and to a family (the
/// tokens that came from one sign-in by rotation). Each is used once; presenting a used one again ends the session.
public struct StoredRefreshToken: Sendable, Hashable {
    public var tokenHash: Data
    /// 16 random bytes shared by a token and the tokens that replace it.
    public var family: Data
    /// The session it belongs to (``StoredSession/tokenHash``).
    public var sessionTokenHash: Data
    public var userID: UUID
    /// How the user signed in (`amr`: `hwk`, `swk`, `pwd`, `apple`), carried into every access token of the family.
    public var authenticationMethods: [String]
    /// When the user signed in (`auth_time`).
    public var authenticatedAt: Date
    public var createdAt: Date

    public init(
        tokenHash: Data, family: Data, sessionTokenHash: Data, userID: UUID, authenticationMethods: [String],
        authenticatedAt: Date, createdAt: Date
    ) {
        self.tokenHash = tokenHash
        self.family = family
        self.sessionTokenHash = sessionTokenHash
        self.userID = userID
        self.authenticationMethods = authenticationMethods
        self.authenticatedAt = authenticatedAt
        self.createdAt = createdAt
    }

    /// What presenting a refresh token did (``TokenStore/rotateRefreshToken(presented:replacement:now:)``).
    public enum Rotation: Sendable, Hashable {
        /// It was live: it is spent, and `replacement` (with its family, session, user and methods) took its place.
        case rotated(StoredRefreshToken)
        /// It had been used before: a copy is in someone else's hands. The session (and with it every token of the
        /// family) is ended.
        case reused(userID: UUID)
        /// Unknown, or its session has ended or expired.
        case invalid
    }
}
