import Foundation

/// The email part of a store: each account's addresses with their one-time codes (kept as hashes), and the outbox of
/// notices waiting to be sent. Every ``LatchkeyStore`` is one; deleting a user removes their addresses.
///
/// An address row holds at most one code at a time: while the address is unverified the code verifies it
/// (``verifyEmail(_:ofUser:codeHash:now:)``); once verified, a code is a recovery code
/// (``consumeEmailRecoveryCode(address:codeHash:now:)``). A code is spent by the statement that checks it, so of
/// concurrent uses exactly one succeeds.
public protocol EmailStore: Sendable {
    /// The user's addresses: the primary first, then the others oldest first.
    func emails(ofUser userID: UUID) async throws(StoreError) -> [StoredEmail]

    /// Adds `address` to the user's account, unverified, with a code (its hash) that verifies it until `codeExpiresAt`;
    /// adding an address the account has unverified again replaces its code. Stores nothing and says why when the
    /// account has the address verified already or holds ``StoredEmail/maximumPerAccount`` addresses. Throws
    /// ``StoreError/Code/notFound`` if the user does not exist.
    func addEmail(_ address: String, toUser userID: UUID, codeHash: Data, codeExpiresAt: Date, now: Date)
        async throws(StoreError) -> StoredEmail.Addition

    /// Verifies the user's address when `codeHash` is its unexpired code: true, and the code is spent (the address
    /// becomes primary if the account has no primary); false for a wrong or expired code or an unknown address. Throws
    /// ``StoreError/Code/conflict`` if another account verified the address first.
    func verifyEmail(_ address: String, ofUser userID: UUID, codeHash: Data, now: Date) async throws(StoreError) -> Bool

    /// The account that has `address` verified (compared case-insensitively), or nil.
    func userID(verifiedEmail address: String) async throws(StoreError) -> UUID?

    /// Gives the verified `address` a recovery code until `expiresAt`: the address as its account stores it, or nil (and
    /// nothing is stored) when no account has it verified.
    func setEmailRecoveryCode(address: String, codeHash: Data, expiresAt: Date) async throws(StoreError) -> StoredEmail?

    /// Spends the recovery code of the verified `address`: its account when `codeHash` is the unexpired code, nil
    /// otherwise.
    func consumeEmailRecoveryCode(address: String, codeHash: Data, now: Date) async throws(StoreError) -> UUID?

    /// Removes one of the user's addresses; if it was the primary, the oldest other verified address becomes primary.
    /// Throws ``StoreError/Code/notFound`` unless the account has the address.
    func removeEmail(_ address: String, ofUser userID: UUID) async throws(StoreError)

    /// Makes one of the user's verified addresses the primary. Throws ``StoreError/Code/notFound`` unless the account
    /// has the address verified.
    func makePrimaryEmail(_ address: String, ofUser userID: UUID) async throws(StoreError)

    /// Puts a notice in the outbox; false, storing nothing, when it already holds `limit` messages.
    func enqueueMail(_ mail: StoredMail, limit: Int) async throws(StoreError) -> Bool

    /// Takes up to `limit` messages due at `now` for sending: each one's attempts go up by one and its next attempt moves
    /// to `now + lease`, so another instance does not take it meanwhile (and it is tried again if this one dies).
    func claimMail(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [StoredMail]

    /// Removes a message (sent, or given up).
    func deleteMail(id: UUID) async throws(StoreError)

    /// Sets when a message is tried next.
    func rescheduleMail(id: UUID, at: Date) async throws(StoreError)
}
