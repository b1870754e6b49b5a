import Foundation
import GRDB
import ServiceLifecycle

/// A ``LatchkeyStore`` in one SQLite file, through GRDB: WAL journal (readers never block the writer), foreign keys
/// on, and versioned migrations applied when the store is opened.
///
/// Every call runs on the store's own threads (``SQLiteThreads``: a writer connection that commits waiting writes
/// together and a read-only connection, each on a thread of its own) and the caller awaits it, so no SQLite call ever
/// runs on the caller's thread, whatever that is (under `latchkey serve`, an event loop). Writes are serialised by the writer, so every change is atomic against
/// concurrent callers in this process, and SQLite's locking covers other processes.
///
/// A write waits at most ``busyTimeout`` for the database: for another process's lock (a backup, the `sqlite3` shell,
/// another server), and for its turn behind writes stuck on one. Past it the write fails with ``StoreError/Code/busy``
/// and changes nothing.
public final class SQLiteStore: LatchkeyStore {
    /// The database file.
    public let path: String
    /// How long a write may wait for the database before it fails with ``StoreError/Code/busy``.
    public let busyTimeout: Duration
    /// The writer thread's connection (tests read the `synchronous` setting its last commit left).
    let writer: DatabaseQueue
    private let threads: SQLiteThreads

    /// How long a write waits for the database unless the store URL says otherwise (`?busy_timeout=MILLISECONDS`).
    public static let defaultBusyTimeout: Duration = .seconds(2)

    /// Opens (creating when missing, with its directory, readable and writable by its owner only: mode 0600) the
    /// database at `path` and migrates it.
    ///
    /// Throws ``StoreError/Code/unavailable`` if the file cannot be opened or migrated.
    public init(path: String, busyTimeout: Duration = SQLiteStore.defaultBusyTimeout) throws(StoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(
                .unavailable, "cannot create the directory \(directory.path): \(error.localizedDescription)")
        }
        // Only the server's user may read the file (sessions, credentials, sealed Apple tokens); SQLite gives its
        // -wal and -shm files the database file's mode. An existing file keeps the mode its owner gave it.
        if !FileManager.default.fileExists(atPath: path),
            !FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        {
            throw StoreError(.unavailable, "cannot create the database file \(path)")
        }
        var configuration = Configuration()
        configuration.label = "LatchkeyStore"
        configuration.foreignKeysEnabled = true
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(
            TimeInterval(busyTimeout.components.seconds) + Double(busyTimeout.components.attoseconds) / 1e18)
        var readerConfiguration = configuration
        readerConfiguration.readonly = true
        do {
            writer = try SQLiteSchema.open(path: path, configuration: configuration)
            try SQLiteSchema.migrate(writer)
            let reader = try DatabaseQueue(path: path, configuration: readerConfiguration)
            threads = SQLiteThreads(writer: writer, reader: reader, busyTimeout: busyTimeout)
        } catch {
            throw StoreError(sqlite: error)
        }
    }

    /// Nothing to run: the store is a service only so that its embedder's lifecycle can hold it.
    public func run() async throws {
        try? await gracefulShutdown()
    }

    public func migrate() async throws(StoreError) {
        do {
            try SQLiteSchema.migrate(writer)
        } catch {
            throw StoreError(sqlite: error)
        }
    }

    // MARK: Users

    public func createUser(_ user: StoredUser) async throws(StoreError) {
        try user.validate()
        try await write { db in try Self.insert(user, into: db) }
    }

    public func user(id: UUID) async throws(StoreError) -> StoredUser? {
        try await fetchUser(where: "id = ?", [id])
    }

    public func user(handle: Data) async throws(StoreError) -> StoredUser? {
        try await fetchUser(where: "user_handle = ?", [handle])
    }

    public func user(named name: String) async throws(StoreError) -> StoredUser? {
        try await fetchUser(where: "name_key = ?", [StoredUser.nameKey(name)])
    }

    public func user(confusableWith name: String) async throws(StoreError) -> StoredUser? {
        let skeletons = Array(NameSkeleton.candidates(of: name))
        let marks = Array(repeating: "?", count: skeletons.count).joined(separator: ", ")
        return try await fetchUser(
            where: "name_skeleton IN (\(marks)) AND name_key <> ?",
            StatementArguments(skeletons) + [StoredUser.nameKey(name)])
    }

    public func deleteUser(id: UUID) async throws(StoreError) {
        // Credentials, sessions, Apple links and web flows go with it: ON DELETE CASCADE.
        try await write { db in
            try Self.requireChange(db, "DELETE FROM users WHERE id = ?", [id], otherwise: "the user does not exist")
        }
    }

    // MARK: Credentials

    public func addCredential(_ credential: StoredCredential) async throws(StoreError) {
        try credential.validate()
        try await write { db in try Self.insert(credential, into: db) }
    }

    public func credential(id: Data) async throws(StoreError) -> StoredCredential? {
        try await account(StoreColumns.accountByCredential, id)?.credential(id: id)
    }

    public func account(named name: String) async throws(StoreError) -> StoredAccount? {
        try await account(StoreColumns.accountByName, StoredUser.nameKey(name))
    }

    public func account(ofCredential id: Data) async throws(StoreError) -> StoredAccount? {
        try await account(StoreColumns.accountByCredential, id)
    }

    public func credentials(ofUser userID: UUID) async throws(StoreError) -> [StoredCredential] {
        try await account(StoreColumns.accountByUserID, userID)?.credentials ?? []
    }

    /// An account with its credentials, oldest first, in one statement (``StoreColumns/account(where:)``): a row per
    /// credential, or one row of NULL credential columns for an account without any.
    private func account(_ sql: String, _ key: some DatabaseValueConvertible & Sendable) async throws(StoreError)
        -> StoredAccount?
    {
        try await read { db in
            var user: StoredUser?
            var credentials: [StoredCredential] = []
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [key])
            while let row = try rows.next() {
                if user == nil { user = try StoredUser(sqliteRow: row, at: StoreColumns.credentialCount) }
                if !row.hasNull(atIndex: 0) { credentials.append(try StoredCredential(sqliteRow: row)) }
            }
            return user.map { StoredAccount(user: $0, credentials: credentials) }
        }
    }

    public func renameCredential(id: Data, ofUser userID: UUID, to label: String?) async throws(StoreError) {
        try await write { db in
            try Self.requireChange(
                db, "UPDATE credentials SET label = ? WHERE id = ? AND user_id = ?", [label, id, userID],
                otherwise: "the user has no such credential"
            )
        }
    }

    public func deleteCredential(
        id: Data, ofUser userID: UUID, keepingAnotherWayIn: Bool, sparingSession spared: Data?
    ) async throws(StoreError) {
        try await write { db in
            if let spared {
                try db.execute(
                    sql: "UPDATE sessions SET credential_id = NULL WHERE token_hash = ? AND credential_id = ?",
                    arguments: [spared, id]
                )
            }
            try Self.requireChange(
                db, "DELETE FROM credentials WHERE id = ? AND user_id = ?", [id, userID],
                otherwise: "the user has no such credential"
            )
            if keepingAnotherWayIn {
                try Self.requireWayIn(db, of: userID, otherwise: "the credential is the user's last way to sign in")
            }
        }
    }

    /// Throws ``StoreError/Code/conflict`` with `message` unless `userID` can still sign in (``StoreColumns/hasWayIn``):
    /// run after removing a way in, in its transaction, which throwing rolls back.
    static func requireWayIn(_ db: Database, of userID: UUID, otherwise message: String) throws {
        let statement = try db.cachedStatement(sql: "SELECT \(StoreColumns.hasWayIn) FROM users WHERE id = ?")
        guard try Bool.fetchOne(statement, arguments: [userID]) == true else { throw StoreError(.conflict, message) }
    }

    // MARK: Spent tickets

    public func spendTicket(_ ticket: SpentTicket) async throws(StoreError) -> Bool {
        try ticket.validate()
        return try await write { db in try Self.spend(ticket, in: db) }
    }

    public func purgeSpentTickets(now: Date) async throws(StoreError) -> Int {
        try await purge("spent_tickets", key: ["expires_at", "id"], where: "expires_at <= ?", now)
    }

    /// Records `ticket` as spent in the caller's transaction; false when it was spent already.
    private static func spend(_ ticket: SpentTicket, in db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: "INSERT INTO spent_tickets (id, expires_at) VALUES (?, ?) ON CONFLICT (expires_at, id) DO NOTHING"
        )
        .execute(arguments: [ticket.id, ticket.expiresAt])
        return db.changesCount > 0
    }

    // MARK: Sessions

    public func createSession(_ session: StoredSession) async throws(StoreError) {
        try session.validate()
        try await write { db in try Self.insert(session, into: db) }
    }

    public func session(tokenHash: Data, now: Date) async throws(StoreError) -> StoredSession? {
        try await first(
            "SELECT \(StoreColumns.session) FROM sessions WHERE token_hash = ? AND expires_at > ?", [tokenHash, now],
            StoredSession.init(sqliteRow:))
    }

    public func sessions(ofUser userID: UUID, now: Date) async throws(StoreError) -> [StoredSession] {
        try await all(Self.accountSessions, [userID, now], StoredSession.init(sqliteRow:))
    }

    /// An account's live sessions, newest first (the index `sessions_user_created` in order).
    static let accountSessions = """
        SELECT \(StoreColumns.session) FROM sessions WHERE user_id = ? AND expires_at > ?
        ORDER BY created_at DESC, token_hash DESC
        """

    public func markSessionSeen(tokenHash: Data, at time: Date) async throws(StoreError) {
        try await change("UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?", [time, tokenHash], .unsynced)
    }

    public func deleteSession(tokenHash: Data) async throws(StoreError) {
        try await change("DELETE FROM sessions WHERE token_hash = ?", [tokenHash])
    }

    public func deleteSessions(ofUser userID: UUID) async throws(StoreError) -> Int {
        try await change("DELETE FROM sessions WHERE user_id = ?", [userID])
    }

    public func purgeExpiredSessions(now: Date) async throws(StoreError) -> Int {
        try await purge("sessions", key: ["token_hash"], where: "expires_at <= ?", now)
    }

    // MARK: Ceremony outcomes

    public func commitRegistration(
        _ credential: StoredCredential,
        creating user: StoredUser?,
        session: StoredSession?
    ) async throws(StoreError) {
        try OutcomeChecks.checkRegistration(credential, creating: user, session: session)
        try await write { db in
            if let user { try Self.insert(user, into: db) }
            try Self.insert(credential, into: db)
            if let session { try Self.insert(session, into: db) }
        }
    }

    public func commitRegistration(
        spending ticket: SpentTicket, _ credential: StoredCredential, creating user: StoredUser?,
        session: StoredSession?
    ) async throws(StoreError) -> Bool {
        try ticket.validate()
        try OutcomeChecks.checkRegistration(credential, creating: user, session: session)
        return try await write(recordingIf: { $0 }) { db in
            guard try Self.spend(ticket, in: db) else { return false }
            if let user { try Self.insert(user, into: db) }
            try Self.insert(credential, into: db)
            if let session { try Self.insert(session, into: db) }
            return true
        }
    }

    public func commitAuthentication(
        spending ticket: SpentTicket,
        credentialID: Data,
        newSignCount: UInt32,
        backupEligible: Bool,
        backedUp: Bool,
        usedAt: Date,
        session: StoredSession?,
        previousSignCount: UInt32
    ) async throws(StoreError) -> Bool {
        try ticket.validate()
        // Unsynced: a power cut may undo a sign-in (the user signs in again), never a sign-out or a change. What it undoes
        // goes whole: the spent ticket, the counter, the session, a backup-eligibility change the sign-in recorded, and
        // the sign-in's audit events and their webhook deliveries (the next sign-in records the change again).
        return try await write(.unsynced, recordingIf: { $0 }) { db in
            guard try Self.spend(ticket, in: db) else { return false }
            let owner = try UUID.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE credentials SET sign_count = ?, backup_eligible = ?, backed_up = ?, last_used_at = ?
                        WHERE id = ? AND sign_count = ? RETURNING user_id
                        """),
                arguments: [
                    Int64(newSignCount), backupEligible, backedUp, usedAt, credentialID, Int64(previousSignCount),
                ]
            )
            guard let owner else {
                let exists =
                    try Int.fetchOne(
                        db.cachedStatement(sql: "SELECT 1 FROM credentials WHERE id = ?"), arguments: [credentialID])
                    != nil
                throw exists ? OutcomeChecks.signCountMoved : OutcomeChecks.credentialMissing
            }
            try OutcomeChecks.checkSession(session, owner: owner)
            if let session { try Self.insert(session, into: db) }
            return true
        }
    }

    // MARK: Statements shared by several calls

    static func insert(_ user: StoredUser, into db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT INTO users (\(StoreColumns.user), name_key, name_skeleton) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        .execute(arguments: user.sqliteArguments)
    }

    private static func insert(_ credential: StoredCredential, into db: Database) throws {
        try db.cachedStatement(
            sql:
                "INSERT INTO credentials (\(StoreColumns.credential)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        .execute(arguments: try credential.sqliteArguments)
    }

    static func insert(_ session: StoredSession, into db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT INTO sessions (\(StoreColumns.session)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        .execute(arguments: session.sqliteArguments)
    }

    /// Runs a change that must touch a row; throws ``StoreError/Code/notFound`` with `message` when it touched none.
    static func requireChange(
        _ db: Database, _ sql: String, _ arguments: StatementArguments, otherwise message: String
    ) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
        guard db.changesCount > 0 else { throw StoreError(.notFound, message) }
    }

    private func fetchUser(where condition: String, _ arguments: StatementArguments) async throws(StoreError)
        -> StoredUser?
    {
        try await first("SELECT \(StoreColumns.user) FROM users WHERE \(condition)", arguments) {
            try StoredUser(sqliteRow: $0)
        }
    }

    // MARK: Access

    /// A write transaction on the writer thread (``SQLiteThreads``), answered once it has committed; any error rolls
    /// the write back and becomes a ``StoreError``. A write that waited ``busyTimeout`` for its turn (behind writes
    /// held up by another process's lock) fails with ``StoreError/Code/busy`` unrun, so no caller waits much more than
    /// that in all.
    ///
    /// Audit events pending for this task (``AuditTrail``) are written in the same transaction, after `updates`, when
    /// `changed` says its value is a change made (a spent code, not a wrong one).
    func write<T: Sendable>(
        _ durability: Durability = .synced,
        recordingIf changed: @escaping @Sendable (T) -> Bool = { _ in true },
        _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        let events = AuditTrail.claim()
        do {
            guard !events.isEmpty else { return try await threads.write(durability, updates) }
            return try await threads.write(durability) { db in
                let value = try updates(db)
                if changed(value) { try Self.insert(events, db: db) }
                return value
            }
        } catch {
            throw StoreError(sqlite: error)
        }
    }

    /// A change that is one statement (``write(_:recordingIf:_:)``); returns how many rows it changed.
    @discardableResult
    func change(
        _ sql: String, _ arguments: StatementArguments, _ durability: Durability = .synced,
        recordingIf changed: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) async throws(StoreError) -> Int {
        try await write(durability, recordingIf: changed) { db in
            try db.cachedStatement(sql: sql).execute(arguments: arguments)
            return db.changesCount
        }
    }

    /// A read on the reader thread, outside an explicit transaction (one statement reads one snapshot; in WAL mode a
    /// reader never waits for the writer). Reads that must agree are one statement (a join).
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await threads.read(value)
        } catch {
            throw StoreError(sqlite: error)
        }
    }

    /// The rows `sql` selects (``read(_:)``), each decoded.
    func all<T: Sendable>(
        _ sql: String, _ arguments: StatementArguments = [], _ decode: @escaping @Sendable (Row) throws -> T
    ) async throws(StoreError) -> [T] {
        try await read { db in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(decode) }
    }

    /// The first row `sql` selects (``read(_:)``), decoded; nil if it selects none.
    func first<T: Sendable>(
        _ sql: String, _ arguments: StatementArguments, _ decode: @escaping @Sendable (Row) throws -> T
    ) async throws(StoreError) -> T? {
        try await read { db in try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments).map(decode) }
    }
}
