import Foundation

/// The recovery-code part of a store: each user's current set of single-use recovery codes, kept only as SHA-256
/// hashes (the codes are shown once, when made). Every ``LatchkeyStore`` is one; deleting a user removes their codes.
public protocol RecoveryCodeStore: Sendable {
    /// Replaces the user's codes with `hashes` in one transaction (the old set stops working). Throws
    /// ``StoreError/Code/notFound`` if the user does not exist, ``StoreError/Code/invalidRecord`` for a hash that is not
    /// 32 bytes.
    func replaceRecoveryCodes(ofUser userID: UUID, hashes: [Data], now: Date) async throws(StoreError)

    /// How many of the user's codes are unused.
    func recoveryCodeCount(ofUser userID: UUID) async throws(StoreError) -> Int

    /// Uses the user's code with this hash: true, and it is gone, when the user had it; false otherwise. Of concurrent
    /// uses of one code exactly one is true.
    func consumeRecoveryCode(ofUser userID: UUID, hash: Data) async throws(StoreError) -> Bool

    /// Stores a recovery link an operator issued for the user: the SHA-256 of its token, valid until `expiresAt`.
    /// Throws ``StoreError/Code/notFound`` if the user does not exist.
    func insertRecoveryLink(tokenHash: Data, ofUser userID: UUID, expiresAt: Date) async throws(StoreError)

    /// Uses the link whose token has this hash: its user while it was unused and unexpired at `now` (it is gone), nil
    /// otherwise. Of concurrent uses of one link exactly one has the user.
    func consumeRecoveryLink(tokenHash: Data, now: Date) async throws(StoreError) -> UUID?

    /// Deletes the links expired by `now`; returns how many.
    @discardableResult
    func purgeExpiredRecoveryLinks(now: Date) async throws(StoreError) -> Int
}
