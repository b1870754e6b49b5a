import Foundation

/// The password part of a store: one password hash per user (never the password), and the failure counts that
/// throttle password guessing, kept in the database so every server instance sees the same counts. Every
/// ``LatchkeyStore`` is one.
///
/// Hashes are opaque, self-describing strings the server makes (`$scrypt$ln=17,r=8,p=1$salt$hash`); the store
/// only keeps them. Deleting a user (``LatchkeyStore/deleteUser(id:)``) removes their password too.
public protocol PasswordStore: Sendable {
    /// The user's password hash, or nil when the account has no password.
    func passwordHash(ofUser userID: UUID) async throws(StoreError) -> String?

    /// Commits a password sign-up in one transaction: creates `user`, stores its password hash and `session`.
    /// Throws ``StoreError/Code/conflict`` (writing nothing) when the name or handle is taken and
    /// ``StoreError/Code/invalidRecord`` when the session is for another user.
    func commitPasswordSignUp(_ user: StoredUser, passwordHash: String, session: StoredSession) async throws(StoreError)

    /// Sets (adds or replaces) a user's password hash. Throws ``StoreError/Code/notFound`` if the user does not exist.
    func setPasswordHash(_ hash: String, ofUser userID: UUID, now: Date) async throws(StoreError)

    /// Replaces the hash only if it still is `expected` (a rehash after a successful sign-in, which must not undo
    /// a password change made meanwhile); returns whether it did.
    @discardableResult
    func replacePasswordHash(ofUser userID: UUID, expected: String, with hash: String, now: Date)
        async throws(StoreError) -> Bool

    /// Removes a user's password. Throws ``StoreError/Code/notFound`` when the user has none; with
    /// `keepingAnotherWayIn`, ``StoreError/Code/conflict`` (removing nothing) unless the user keeps a passkey or
    /// an Apple link, judged in the same transaction.
    func deletePassword(ofUser userID: UUID, keepingAnotherWayIn: Bool) async throws(StoreError)

    /// The throttle state of `key` (the server uses the account name's key, for known and unknown names alike),
    /// or nil when it has no recorded failures.
    func passwordThrottle(key: String) async throws(StoreError) -> PasswordThrottle?

    /// Takes one password attempt for `key` before the password is checked, atomically (of concurrent callers, on any
    /// instance, each is counted in turn): while `key`'s next allowed attempt is after `now`, nothing changes and the
    /// answer is nil; otherwise the attempt is counted as a failure, the next allowed attempt becomes
    /// `now + delay(failures)`, and the answer is the new state. A caller whose password turns out right forgets the
    /// failures (``clearPasswordFailures(key:)``). Counting first is what keeps a burst of parallel guesses within the
    /// budget a serial guesser gets.
    func reservePasswordAttempt(
        key: String, now: Date, delay: @escaping @Sendable (Int) -> TimeInterval
    ) async throws(StoreError) -> PasswordThrottle?

    /// Forgets the failures of `key` (after a successful sign-in).
    func clearPasswordFailures(key: String) async throws(StoreError)

    /// Deletes throttle records whose last failure was before `cutoff`; returns how many.
    @discardableResult
    func purgePasswordThrottles(lastFailureBefore cutoff: Date) async throws(StoreError) -> Int
}

/// How many password attempts failed in a row for one account name, and when the next one may be made.
public struct PasswordThrottle: Sendable, Hashable {
    public var key: String
    public var failures: Int
    /// Before this instant an attempt is refused without checking the password.
    public var nextAllowedAt: Date
    public var lastFailureAt: Date

    public init(key: String, failures: Int, nextAllowedAt: Date, lastFailureAt: Date) {
        self.key = key
        self.failures = failures
        self.nextAllowedAt = nextAllowedAt
        self.lastFailureAt = lastFailureAt
    }

    /// The longest throttle key the store accepts (a user name key is much shorter).
    public static let maximumKeyLength = 512

    static func validate(key: String) throws(StoreError) {
        guard (1...maximumKeyLength).contains(key.utf8.count) else {
            throw StoreError(.invalidRecord, "a password throttle key must be 1 to \(maximumKeyLength) bytes")
        }
    }

    static func validate(hash: String) throws(StoreError) {
        guard (1...1024).contains(hash.utf8.count) else {
            throw StoreError(.invalidRecord, "a password hash must be 1 to 1024 bytes")
        }
    }
}
