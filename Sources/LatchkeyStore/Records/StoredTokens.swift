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

/// What presenting a refresh token did (``TokenStore/spendRefreshToken(session:generation:now:)``).
///
/// A refresh token is not stored: the server seals into it the hash of the session it belongs to and its generation,
/// and the session keeps the generation that is current. Spending the current one moves the session to the next.
public enum RefreshTokenSpending: Sendable, Hashable {
    /// It was the current generation of a live session, which has moved on to the next.
    case rotated(userID: UUID)
    /// It was an earlier generation, spent before: a copy is in someone else's hands. The session (and with it every
    /// refresh token made for it) is ended.
    case reused(userID: UUID)
    /// Its session has ended or expired, or never had that generation.
    case invalid
}
