import Foundation
import ServiceLifecycle

/// Where Latchkey keeps users, passkey credentials, spent ceremony tickets and sessions (and, as an ``AppleLinkStore``,
/// Sign in with Apple links).
///
/// Two implementations ship: ``SQLiteStore`` (one file, the embedded default) and ``PostgresStore`` (one database
/// shared by many stateless server instances). ``StoreURL`` picks one from a URL.
///
/// ## Lifecycle
/// A store is a ServiceLifecycle `Service`: run ``run()`` in a task (or hand the store to a `ServiceGroup`), then
/// call ``migrate()`` once before any other call. ``PostgresStore`` needs ``run()`` to reach the database at all;
/// ``SQLiteStore`` migrates when opened and works without ``run()``, which moves its log checkpoints to a thread of
/// their own until shutdown; code written for either works with both.
///
/// ## Errors
/// Every call throws ``StoreError`` only. Look-ups return nil for a missing record; changes to a missing record
/// throw ``StoreError/Code/notFound``. A change that fails writes nothing: calls that touch several records
/// (``commitRegistration(_:creating:session:)``, ``commitAuthentication(spending:credentialID:newSignCount:backedUp:usedAt:session:previousSignCount:)``,
/// ``deleteUser(id:)``) run in one transaction.
public protocol LatchkeyStore: AppleLinkStore, AuditStore, EmailStore, PasswordStore, RecoveryCodeStore,
    ServerStateStore, TokenStore, WebhookStore, Service
{
    /// Brings the schema up to the newest version. Safe to call again and from several processes at once.
    func migrate() async throws(StoreError)

    // MARK: Users

    /// Adds a user. Throws ``StoreError/Code/conflict`` if the id, the handle or the name (case-insensitively) is taken.
    func createUser(_ user: StoredUser) async throws(StoreError)
    /// The user with this id, or nil.
    func user(id: UUID) async throws(StoreError) -> StoredUser?
    /// The user with this WebAuthn user handle, or nil.
    func user(handle: Data) async throws(StoreError) -> StoredUser?
    /// The user with this name, compared case-insensitively, or nil.
    func user(named name: String) async throws(StoreError) -> StoredUser?
    /// A user whose name looks like `name` (the same UTS #39 confusables skeleton, ``NameSkeleton``) but is not
    /// `name` itself (compared as ``user(named:)`` does), or nil.
    func user(confusableWith name: String) async throws(StoreError) -> StoredUser?
    /// Deletes a user with their credentials, sessions and Apple links. Throws ``StoreError/Code/notFound`` if there is no such user.
    func deleteUser(id: UUID) async throws(StoreError)

    // MARK: Credentials

    /// Adds a credential to an existing user. Throws ``StoreError/Code/conflict`` (writing nothing) if the credential id
    /// is registered already, to anyone, and ``StoreError/Code/notFound`` if the user does not exist.
    func addCredential(_ credential: StoredCredential) async throws(StoreError)
    /// The credential with this credential id, or nil.
    func credential(id: Data) async throws(StoreError) -> StoredCredential?
    /// The account with this name (compared as ``user(named:)`` does) and its credentials, read together, or nil.
    func account(named name: String) async throws(StoreError) -> StoredAccount?
    /// The account that owns the credential with this credential id, and all its credentials (that one among them),
    /// read together, or nil when no credential has the id.
    func account(ofCredential id: Data) async throws(StoreError) -> StoredAccount?
    /// A user's credentials, oldest first.
    func credentials(ofUser userID: UUID) async throws(StoreError) -> [StoredCredential]
    /// Sets (or, with nil, clears) the label of a user's credential. Throws ``StoreError/Code/notFound`` unless the
    /// credential exists and belongs to `userID`.
    func renameCredential(id: Data, ofUser userID: UUID, to label: String?) async throws(StoreError)
    /// Deletes one of a user's credentials. Throws ``StoreError/Code/notFound`` unless the credential exists and
    /// belongs to `userID`.
    ///
    /// With `keepingAnotherWayIn`, the deletion happens only if the user keeps another credential, an Apple link or a password,
    /// judged in the same transaction as the delete (so two concurrent deletions cannot remove a user's last two
    /// passkeys); otherwise it throws ``StoreError/Code/conflict`` and deletes nothing.
    ///
    /// Deleting a credential ends the sessions made with it (``StoredSession/credentialID``), except the session whose
    /// token hash is `sparingSession`: the caller removing the passkey it signed in with stays signed in (its session
    /// no longer names a passkey). Everything happens in one transaction.
    func deleteCredential(id: Data, ofUser userID: UUID, keepingAnotherWayIn: Bool, sparingSession: Data?)
        async throws(StoreError)

    // MARK: Spent tickets

    /// Records `ticket` as spent, as a server does when a ceremony's finish fails, so that its challenge is not tried
    /// again. Returns false, writing nothing, when the ticket (its ID with its expiry, ``SpentTicket/id``) was spent
    /// already (of concurrent spenders exactly one gets true). Throws ``StoreError/Code/invalidRecord`` for an ID that
    /// is not URL-safe.
    func spendTicket(_ ticket: SpentTicket) async throws(StoreError) -> Bool
    /// Deletes the spent tickets expired by `now` (they can no longer be opened); returns how many.
    @discardableResult
    func purgeSpentTickets(now: Date) async throws(StoreError) -> Int

    // MARK: Sessions

    /// Stores a session. Throws ``StoreError/Code/conflict`` if the token hash is taken and
    /// ``StoreError/Code/notFound`` if the user does not exist.
    func createSession(_ session: StoredSession) async throws(StoreError)
    /// The session with this token hash if it is still valid at `now`; nil if it is unknown or expired.
    func session(tokenHash: Data, now: Date) async throws(StoreError) -> StoredSession?
    /// A user's sessions still valid at `now`, newest first (at most ``StoredSession/maximumPerAccount``).
    func sessions(ofUser userID: UUID, now: Date) async throws(StoreError) -> [StoredSession]
    /// Records that a session was seen at `time`. Recording an unknown session is not an error.
    func markSessionSeen(tokenHash: Data, at time: Date) async throws(StoreError)
    /// Deletes a session (logout). Deleting an unknown session is not an error.
    func deleteSession(tokenHash: Data) async throws(StoreError)
    /// Deletes all of a user's sessions (logout everywhere); returns how many.
    @discardableResult
    func deleteSessions(ofUser userID: UUID) async throws(StoreError) -> Int
    /// Deletes the sessions expired by `now`; returns how many.
    @discardableResult
    func purgeExpiredSessions(now: Date) async throws(StoreError) -> Int

    // MARK: Ceremony outcomes

    /// Commits a finished registration in one transaction: creates `user` when given (a sign-up), adds the
    /// credential, and stores `session` when given. If any part fails nothing is written — a duplicate credential id
    /// leaves no half-made user.
    ///
    /// `credential.userID` must be `user.id` when a user is given, and `session.userID` must be `credential.userID`
    /// (``StoreError/Code/invalidRecord`` otherwise). Without a user the credential's user must exist
    /// (``StoreError/Code/notFound`` otherwise).
    func commitRegistration(_ credential: StoredCredential, creating user: StoredUser?, session: StoredSession?)
        async throws(StoreError)

    /// ``commitRegistration(_:creating:session:)`` that also spends the ceremony's `ticket` in the same transaction, as
    /// a server finishing a registration does: exactly one of concurrent finishes commits. Returns false, writing
    /// nothing, when the ticket was spent already.
    func commitRegistration(
        spending ticket: SpentTicket, _ credential: StoredCredential, creating user: StoredUser?,
        session: StoredSession?
    ) async throws(StoreError) -> Bool

    /// Finishes a verified sign-in in one transaction: spends the ceremony's `ticket`, sets the credential's sign
    /// count, backup eligibility and state (eligibility changes only under an accepting
    /// `BackupEligibilityChangePolicy`) and last use, and stores `session` when given. If any part fails nothing is written and
    /// the ticket stays unspent.
    ///
    /// Returns false, writing nothing, when the ticket was spent already: of concurrent finishers of one ceremony
    /// exactly one gets true.
    ///
    /// The update is a compare-and-set: it happens only if the stored sign count still is `previousSignCount`, the
    /// count the assertion was verified against. Of two sign-ins verified against the same stored count, only the first to
    /// commit succeeds — both cannot advance the counter from one value, so the second is a replay or a clone.
    ///
    /// Throws ``StoreError/Code/notFound`` if the credential does not exist, ``StoreError/Code/invalidRecord`` if
    /// `session` is for a user other than the credential's owner, and ``StoreError/Code/conflict`` if the session's
    /// token hash is taken or the sign count is no longer `previousSignCount`.
    func commitAuthentication(
        spending ticket: SpentTicket,
        credentialID: Data,
        newSignCount: UInt32,
        backupEligible: Bool,
        backedUp: Bool,
        usedAt: Date,
        session: StoredSession?,
        previousSignCount: UInt32
    ) async throws(StoreError) -> Bool
}

extension LatchkeyStore {
    /// ``deleteCredential(id:ofUser:keepingAnotherWayIn:sparingSession:)`` sparing no session.
    public func deleteCredential(id: Data, ofUser userID: UUID, keepingAnotherWayIn: Bool) async throws(StoreError) {
        try await deleteCredential(
            id: id, ofUser: userID, keepingAnotherWayIn: keepingAnotherWayIn, sparingSession: nil)
    }

    /// How many credentials a user has.
    public func credentialCount(ofUser userID: UUID) async throws(StoreError) -> Int {
        try await credentials(ofUser: userID).count
    }
}
