import Foundation

/// The access-token part of a store: the signing keys every instance shares, and the refresh tokens. Every
/// ``LatchkeyStore`` is one; deleting a session (sign-out, its passkey removed, the cap, expiry) deletes its refresh
/// tokens with it.
public protocol TokenStore: Sendable {
    /// Every signing key, oldest generation first.
    func signingKeys() async throws(StoreError) -> [StoredSigningKey]

    /// Stores a key; false, storing nothing, when its generation is taken (another instance made it first).
    func insertSigningKey(_ key: StoredSigningKey) async throws(StoreError) -> Bool

    /// Deletes the keys of generations below `generation`.
    func deleteSigningKeys(before generation: Int) async throws(StoreError)

    /// Stores a new refresh token. Throws ``StoreError/Code/notFound`` if its session does not exist.
    func insertRefreshToken(_ token: StoredRefreshToken) async throws(StoreError)

    /// Spends the refresh token whose hash is `presented`, in one transaction: when it is live (unused, its session
    /// valid at `now`), `replacementHash` becomes the family's next token (created at `now`); when it was used before,
    /// its session is deleted; otherwise nothing changes. Of concurrent uses of one token at most one rotates it.
    func rotateRefreshToken(presented: Data, replacementHash: Data, now: Date) async throws(StoreError)
        -> StoredRefreshToken.Rotation
}
