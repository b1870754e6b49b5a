import CSQLiteLogWrites
import CSQLiteSettings
import Foundation
import GRDB
import GRDBSQLite
import NIOPosix
import ServiceLifecycle

/// A ``LatchkeyStore`` in one SQLite file, through a GRDB `DatabasePool`: WAL journal (readers never block the
/// writer), foreign keys on, a busy timeout for other processes sharing the file, and versioned migrations applied
/// when the store is opened.
///
/// Statements go through GRDB's per-connection statement cache, so each is parsed once per connection.
///
/// Writes are serialised by the pool, so every change — including ``consumeCeremony(id:kind:now:)`` — is atomic
/// against concurrent callers in this process, and SQLite's locking covers other processes.
public final class SQLiteStore: LatchkeyStore {
    /// The database file.
    public let path: String
    private let pool: DatabasePool
    /// Account and credential reads, outside GRDB's reader pool.
    private let accounts: SQLiteAccountReader
    /// Checkpoints the write-ahead log on a thread of its own while ``run()`` runs.
    let checkpointer: SQLiteCheckpointer

    /// How long a write waits for another process's lock before failing with ``StoreError/Code/unavailable``.
    public static let busyTimeout: TimeInterval = 5

    /// Opens (creating when missing, with its directory, readable and writable by its owner only: mode 0600) the
    /// database at `path` and migrates it.
    ///
    /// Throws ``StoreError/Code/unavailable`` if the file cannot be opened or migrated.
    public convenience init(path: String) throws(StoreError) {
        try self.init(path: path, checkpointer: SQLiteCheckpointer(path: path))
    }

    /// A store whose ``run()`` checkpoints with `checkpointer` (tests choose its thresholds).
    init(path: String, checkpointer: SQLiteCheckpointer) throws(StoreError) {
        self.path = path
        self.checkpointer = checkpointer
        accounts = SQLiteAccountReader(path: path)
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
        configuration.busyMode = .timeout(Self.busyTimeout)
        // A reader connection for every thread that may read at once, so reads on the calling thread never wait.
        configuration.maximumReaderCount = max(5, ProcessInfo.processInfo.activeProcessorCount + 1)
        do {
            pool = try SQLiteSchema.open(path: path, configuration: configuration)
            try SQLiteSchema.migrate(pool)
        } catch {
            throw StoreError(sqlite: error)
        }
    }

    /// Turns off SQLite's memory statistics for the whole process; call it once, before any SQLite database is opened
    /// (`latchkey serve` does, first thing). Returns false, changing nothing, when SQLite is already in use.
    ///
    /// With the statistics on (SQLite's default), every allocation and free inside SQLite takes one process-wide
    /// mutex to count it, and Debian's SQLite allocates for every text or blob column it reads (it is built without
    /// lookaside memory). Two event loops signing users in then meet on that mutex: about 190 of a sign-in's 490
    /// `pthread_mutex_lock`s and most of its futex calls (docs/PERFORMANCE.md). SQLite's own documentation recommends
    /// the statistics off for speed. What is lost: `sqlite3_memory_used()` and `sqlite3_status()`'s memory figures
    /// read zero, and a soft heap limit (`sqlite3_soft_heap_limit64`) is not enforced; Latchkey uses neither, but a
    /// process that embeds the store and does should not call this.
    @discardableResult
    public static func turnOffMemoryStatistics() -> Bool {
        latchkey_sqlite_turn_off_memory_statistics() == SQLITE_OK
    }

    /// Makes SQLite write each commit's frames of the write-ahead log with one system call (`pwritev`) instead of two
    /// for each frame (a `pwrite` of its 24-byte header, then one of its page), for every connection the process opens
    /// afterwards; `latchkey` calls it first thing, after ``turnOffMemoryStatistics()``. Returns whether it is in place.
    ///
    /// It installs a VFS of our own (`CSQLiteLogWrites`) as the process's default, over the one that was. That VFS
    /// passes every file but a write-ahead log, and every call but a log's writes, to the one below unchanged. Each
    /// commit's frames are written before SQLite makes the commit visible to any other connection, and what the log
    /// holds is what SQLite would have written, so another process (the `sqlite3` shell, a backup) reads and writes the
    /// file as ever. On a sign-in's commit of seven frames it saved about 15 µs of CPU (docs/PERFORMANCE.md, seventeenth
    /// round).
    ///
    /// The default VFS is process-wide, so the store does not install it behind its embedder's back: a process that
    /// embeds the store calls this itself (before it opens a database, for the store's connections to use it) or not at
    /// all. Calling it again does nothing.
    @discardableResult
    public static func installLogWriteBatching() -> Bool {
        latchkey_sqlite_install_log_write_batching() == SQLITE_OK
    }

    /// Checkpoints the write-ahead log on a thread of its own until graceful shutdown or cancellation.
    ///
    /// While it runs, the writer's commits no longer copy the log back into the database file themselves (SQLite's
    /// automatic checkpoint, every 1,000 frames); a background thread does, on its own connection, and a commit only
    /// checkpoints when the log has grown past 4,000 frames regardless (``SQLiteCheckpointer``). A store that is not
    /// run (a one-off command) checkpoints as SQLite does by default.
    ///
    /// Throws ``StoreError/Code/unavailable`` when the checkpointer's connection cannot be opened.
    public func run() async throws {
        guard try checkpointer.start() else {
            // Already running (run() called twice): this call only waits.
            try? await gracefulShutdown()
            return
        }
        let checkpointer = checkpointer
        // GRDB's blocking overloads, on this thread: the asynchronous ones give up in a cancelled task, and a store
        // cancelled rather than shut down gracefully must still give the writer SQLite's own checkpoint back. Each is
        // one brief turn of the writer, with no statement.
        do {
            try installCheckpointer(checkpointer)
        } catch {
            checkpointer.stop()
            throw StoreError(sqlite: error)
        }
        try? await gracefulShutdown()
        // Should the writer fail here, the hook stays: the checkpointer lives as long as the store, so the hook stays
        // valid, and commits past the backstop still checkpoint.
        try? uninstallCheckpointer()
        checkpointer.stop()
    }

    public func migrate() async throws(StoreError) {
        do {
            try SQLiteSchema.migrate(pool)
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
        try await fetchUser(where: "id = ?", id)
    }

    public func user(handle: Data) async throws(StoreError) -> StoredUser? {
        try await fetchUser(where: "user_handle = ?", handle)
    }

    public func user(named name: String) async throws(StoreError) -> StoredUser? {
        try await fetchUser(where: "name_key = ?", StoredUser.nameKey(name))
    }

    public func user(confusableWith name: String) async throws(StoreError) -> StoredUser? {
        let skeletons = Array(NameSkeleton.candidates(of: name))
        let key = StoredUser.nameKey(name)
        return try await read { db in
            let marks = Array(repeating: "?", count: skeletons.count).joined(separator: ", ")
            var arguments = StatementArguments(skeletons)
            arguments += [key]
            return try Row.fetchOne(
                db,
                sql:
                    "SELECT \(StoreColumns.user) FROM users WHERE name_skeleton IN (\(marks)) AND name_key <> ? LIMIT 1",
                arguments: arguments
            ).map(StoredUser.init(sqliteRow:))
        }
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
        try accounts.account(.credentialID(id))?.credential(id: id)
    }

    public func account(named name: String) async throws(StoreError) -> StoredAccount? {
        try accounts.account(.nameKey(StoredUser.nameKey(name)))
    }

    public func account(ofCredential id: Data) async throws(StoreError) -> StoredAccount? {
        try accounts.account(.credentialID(id))
    }

    public func credentials(ofUser userID: UUID) async throws(StoreError) -> [StoredCredential] {
        try accounts.account(.userID(userID))?.credentials ?? []
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
            // Throwing rolls the delete back.
            if keepingAnotherWayIn { try Self.requireAnotherWayIn(db, besides: id, of: userID) }
        }
    }

    /// Throws ``StoreError/Code/conflict`` unless `userID` has a credential other than `credentialID`, an Apple link or a password.
    private static func requireAnotherWayIn(_ db: Database, besides credentialID: Data, of userID: UUID) throws {
        let others =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT (SELECT count(*) FROM credentials WHERE user_id = ? AND id <> ?)
                             + (SELECT count(*) FROM apple_links WHERE user_id = ?)
                             + (SELECT count(*) FROM password_credentials WHERE user_id = ?)
                        """),
                arguments: [userID, credentialID, userID, userID]
            ) ?? 0
        guard others > 0 else { throw StoreError(.conflict, "the credential is the user's last way to sign in") }
    }

    // MARK: Spent tickets

    public func spendTicket(_ ticket: SpentTicket) async throws(StoreError) -> Bool {
        try ticket.validate()
        return try await write { db in try Self.spend(ticket, in: db) }
    }

    public func purgeSpentTickets(now: Date) async throws(StoreError) -> Int {
        try await purge("spent_tickets", key: ["expires_at", "id"], where: "expires_at <= ?", SQLiteDate(now))
    }

    /// Records `ticket` as spent in the caller's transaction; false when it was spent already.
    private static func spend(_ ticket: SpentTicket, in db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: "INSERT INTO spent_tickets (id, expires_at) VALUES (?, ?) ON CONFLICT (expires_at, id) DO NOTHING"
        )
        .execute(arguments: [ticket.id, SQLiteDate(ticket.expiresAt)])
        return db.changesCount > 0
    }

    // MARK: Sessions

    public func createSession(_ session: StoredSession) async throws(StoreError) {
        try session.validate()
        try await write { db in try Self.insert(session, into: db) }
    }

    public func session(tokenHash: Data, now: Date) async throws(StoreError) -> StoredSession? {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT \(StoreColumns.session) FROM sessions WHERE token_hash = ? AND expires_at > ?"),
                arguments: [tokenHash, SQLiteDate(now)]
            ).map(StoredSession.init(sqliteRow:))
        }
    }

    public func deleteSession(tokenHash: Data) async throws(StoreError) {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE token_hash = ?").execute(arguments: [tokenHash])
        }
    }

    public func deleteSessions(ofUser userID: UUID) async throws(StoreError) -> Int {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE user_id = ?").execute(arguments: [userID])
            return db.changesCount
        }
    }

    public func purgeExpiredSessions(now: Date) async throws(StoreError) -> Int {
        try await purge("sessions", where: "expires_at <= ?", SQLiteDate(now))
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
        return try await write { db in
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
        backedUp: Bool,
        usedAt: Date,
        session: StoredSession?,
        previousSignCount: UInt32
    ) async throws(StoreError) -> Bool {
        try ticket.validate()
        return try await write { db in
            guard try Self.spend(ticket, in: db) else { return false }
            let owner = try UUID.fetchOne(
                db.cachedStatement(
                    sql: """
                        UPDATE credentials SET sign_count = ?, backed_up = ?, last_used_at = ?
                        WHERE id = ? AND sign_count = ? RETURNING user_id
                        """),
                arguments: [Int64(newSignCount), backedUp, SQLiteDate(usedAt), credentialID, Int64(previousSignCount)]
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
        try db.cachedStatement(sql: "INSERT INTO sessions (\(StoreColumns.session)) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: session.sqliteArguments)
    }

    /// Runs a change that must touch a row; throws ``StoreError/Code/notFound`` with `message` when it touched none.
    private static func requireChange(
        _ db: Database, _ sql: String, _ arguments: StatementArguments, otherwise message: String
    ) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
        guard db.changesCount > 0 else { throw StoreError(.notFound, message) }
    }

    private func fetchUser(where condition: String, _ value: some DatabaseValueConvertible & Sendable)
        async throws(StoreError) -> StoredUser?
    {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(StoreColumns.user) FROM users WHERE \(condition)"), arguments: [value]
            )
            .map(StoredUser.init(sqliteRow:))
        }
    }

    // MARK: Access

    /// A write transaction; any error rolls it back and becomes a ``StoreError``.
    ///
    /// On one of NIO's event loops (`latchkey serve` runs Swift Concurrency there) it runs on the calling thread: GRDB's
    /// blocking `writeWithoutTransaction` enters the pool's writer queue in place, so an uncontended write (the usual
    /// case: one short transaction, and a WAL commit does not wait for the disk) costs no thread switch, where the asynchronous
    /// overload hops to a dispatch thread and back for every write; a caller meeting another write waits for it, as it
    /// would have waited for the queue anyway. Anywhere else (Swift Concurrency's cooperative pool, which has a thread
    /// per core for every task of the process and must not be blocked) it takes the asynchronous overload.
    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            if MultiThreadedEventLoopGroup.currentEventLoop != nil {
                return try writeOnCallingThread(updates)
            }
            return try await pool.writeWithoutTransaction { db in try Self.transaction(db, updates) }
        } catch {
            throw StoreError(sqlite: error)
        }
    }

    // Synchronous, so that GRDB's blocking overloads are the ones called.
    private func installCheckpointer(_ checkpointer: SQLiteCheckpointer) throws {
        try pool.writeWithoutTransaction { db in checkpointer.install(on: db) }
    }

    private func uninstallCheckpointer() throws {
        try pool.writeWithoutTransaction { db in SQLiteCheckpointer.uninstall(from: db) }
    }

    // Synchronous, so that GRDB's blocking overload is the one called.
    private func writeOnCallingThread<T>(_ updates: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in try Self.transaction(db, updates) }
    }

    /// `updates` in an immediate transaction, committed if it returns and rolled back if it throws, as GRDB's `write`
    /// does, but with `BEGIN` and `COMMIT` prepared once per connection (GRDB parses and prepares both for every
    /// transaction, a measurable part of a sign-in's commit: docs/PERFORMANCE.md).
    static func transaction<T>(_ db: Database, _ updates: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            let result = try updates(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            // A failed COMMIT (a deferred constraint, a busy lock) leaves the transaction open; some errors (a full
            // disk, an I/O error) end it themselves, and then there is nothing to undo.
            if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
            throw error
        }
    }

    /// A read of one statement: it runs on the calling thread (in WAL mode a reader never waits for the writer, and
    /// the pool has a connection for each concurrent reader, so the call does not block; hopping to a reader queue
    /// and back would cost more than the query), and outside an explicit transaction, since one statement reads one
    /// snapshot anyway (BEGIN and COMMIT around it measured as costly as the query). Reads that must agree are one
    /// statement (a join), not several.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try readOutsideTransaction(value)
        } catch {
            throw StoreError(sqlite: error)
        }
    }

    // Synchronous, so that GRDB's blocking overloads are the ones called.
    private func readOutsideTransaction<T>(_ value: (Database) throws -> T) throws -> T {
        try pool.unsafeRead(value)
    }

}
