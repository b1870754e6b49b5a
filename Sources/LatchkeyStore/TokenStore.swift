import Foundation

/// The access-token part of a store: the signing keys every instance shares, and each session's refresh-token
/// generation. Every ``LatchkeyStore`` is one; a refresh token lives no longer than its session (sign-out, its passkey
/// removed, the cap, expiry).
public protocol TokenStore: Sendable {
    /// Every signing key, oldest generation first.
    func signingKeys() async throws(StoreError) -> [StoredSigningKey]

    /// Stores a key; false, storing nothing, when its generation is taken (another instance made it first).
    func insertSigningKey(_ key: StoredSigningKey) async throws(StoreError) -> Bool

    /// Deletes the keys of generations below `generation`.
    func deleteSigningKeys(before generation: Int) async throws(StoreError)

    /// Spends generation `generation` of the refresh tokens of the session whose hash is `sessionTokenHash`, in one
    /// transaction: when it is the session's current generation and the session is live at `now`, the next generation
    /// becomes current; when it is an earlier one, the session is deleted; otherwise nothing changes. Of concurrent
    /// spends of one generation one rotates, and the others find it spent.
    func spendRefreshToken(session sessionTokenHash: Data, generation: Int, now: Date) async throws(StoreError)
        -> RefreshTokenSpending
}
