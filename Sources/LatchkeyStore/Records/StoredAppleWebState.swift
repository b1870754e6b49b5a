import Foundation

/// A pending Sign in with Apple web flow: the `state` sent to Apple's authorize page and the raw nonce whose hash
/// went with it, until Apple posts the user back. Used once: ``AppleLinkStore/consumeAppleWebState(_:now:)``
/// removes it as it returns it.
public struct StoredAppleWebState: Sendable, Hashable {
    /// The `state` parameter: random, unguessable, URL-safe (`A–Z a–z 0–9 - _`).
    public var state: String
    /// The raw nonce; Apple puts its SHA-256 hex in the identity token.
    public var rawNonce: String
    /// The signed-in user who started the flow to link their Apple ID; nil for a plain sign-in.
    public var userID: UUID?
    public var createdAt: Date
    /// After this instant the state can no longer be consumed.
    public var expiresAt: Date

    public init(state: String, rawNonce: String, userID: UUID? = nil, createdAt: Date = Date(), expiresAt: Date) {
        self.state = state
        self.rawNonce = rawNonce
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Throws ``StoreError/Code/invalidRecord`` unless the state can be stored (URL-safe, as ``SpentTicket/id`` is).
    func validate() throws(StoreError) {
        try URLSafeID.validate(state, what: "an Apple web state")
        guard !rawNonce.isEmpty else { throw StoreError(.invalidRecord, "an Apple web state needs a nonce") }
    }

    /// The state a consume removed, or ``StoreError/Code/expired`` if it had expired by `now`.
    func requireLive(at now: Date) throws(StoreError) -> Self {
        guard now < expiresAt else { throw StoreError(.expired, "the Sign in with Apple state has expired") }
        return self
    }
}
