import Foundation

/// A nonce the server issued for an app's Sign in with Apple (`POST /v1/apple/nonce`): the app puts its SHA-256 in
/// the Apple request and sends it back with the identity token. Used once: ``AppleLinkStore/recordAppleTokenUse(subject:nonceHash:expiresAt:consumingNonce:now:)``
/// removes it as the sign-in is recorded.
public struct StoredAppleNonce: Sendable, Hashable {
    /// The raw nonce: random, unguessable, URL-safe (`A–Z a–z 0–9 - _`).
    public var nonce: String
    public var createdAt: Date
    /// After this instant the nonce can no longer be used.
    public var expiresAt: Date

    public init(nonce: String, createdAt: Date = Date(), expiresAt: Date) {
        self.nonce = nonce
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Throws ``StoreError/Code/invalidRecord`` unless the nonce can be stored (URL-safe, as ``SpentTicket/id`` is).
    func validate() throws(StoreError) {
        try URLSafeID.validate(nonce, what: "a Sign in with Apple nonce")
    }
}

/// What ``AppleLinkStore/recordAppleTokenUse(subject:nonceHash:expiresAt:consumingNonce:now:)`` throws.
enum AppleTokenUseErrors {
    static let replayed = StoreError(.conflict, "this identity token (Apple ID and nonce) has signed in already")
    static let unknownNonce = StoreError(.notFound, "no unused Sign in with Apple nonce has this value")
    static let expiredNonce = StoreError(.expired, "the Sign in with Apple nonce has expired")
}
