import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// A ``LatchkeyStore`` in PostgreSQL, through PostgresNIO's pooled `PostgresClient`: the shared store for many
/// stateless server instances.
///
/// The pool works only while ``run()`` runs, so start it first — in a task, or by handing the store to a
/// ServiceLifecycle `ServiceGroup` (it is a `Service`) — then call ``migrate()``:
///
/// ```swift
/// let store = try PostgresStore(configuration: .init(host: "db", username: "latchkey", database: "latchkey"))
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await store.run() }
///     try await store.migrate()
///     // … serve …
///     group.cancelAll()
/// }
/// ```
///
/// ``run()`` may be called once; cancelling it closes the pool. Calls made while it is not running wait.
/// Spending a ticket is a single `INSERT … ON CONFLICT DO NOTHING`, so concurrent spenders — in any number of
/// processes — cannot both spend it. Multi-record calls use one transaction on one connection.
public final class PostgresStore: LatchkeyStore {
    public let configuration: Configuration
    let client: PostgresClient
    let logger: Logger

    /// Makes the store and its (idle) pool. Throws ``StoreError/Code/invalidConfiguration`` for a bad configuration.
    public init(configuration: Configuration, logger: Logger = Logger(label: "latchkey.store.postgres"))
        throws(StoreError)
    {
        try configuration.validate()
        self.configuration = configuration
        self.logger = logger
        self.client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
    }

    /// Runs the connection pool until cancelled or, in a `ServiceGroup`, until graceful shutdown.
    public func run() async {
        await client.run()
    }

    /// Migrations may take longer than ``Configuration/operationTimeout``; they get this long.
    static let migrationTimeout: Duration = .seconds(300)

    public func migrate() async throws(StoreError) {
        try await migrate(upTo: .max)
    }

    /// Applies the missing ones of `migrations` up to `version` (a test's older schema, or a test's extra migration;
    /// ``migrate()`` applies the schema's all).
    func migrate(
        upTo version: Int64, _ migrations: [PostgresSchema.Migration] = PostgresSchema.migrations
    ) async throws(StoreError) {
        // Fail fast (operationTimeout) when the database cannot be reached, then allow the migration its time.
        try await checkConnectionLimit()
        try await transaction(limit: Self.migrationTimeout) { [self] connection in
            // The migration's statements get the migration's time, not one store call's (`statement_timeout`).
            try await connection.execute(
                PostgresQuery(
                    unsafeSQL: "SET LOCAL statement_timeout = \(Self.migrationTimeout.components.seconds * 1000)"),
                logger: logger)
            try await connection.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey))", logger: logger)
            if let schema = configuration.schema {
                // `schema` is a validated plain identifier, so it can be spelled into the statement.
                try await connection.execute(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
            }
            try await connection.execute(PostgresQuery(unsafeSQL: PostgresSchema.createMigrationsTable), logger: logger)
            let applied = Set(
                try await connection.all("SELECT version FROM schema_migrations", logger: logger) {
                    try $0.decode(Int64.self)
                })
            let unknown = applied.subtracting(migrations.map(\.version))
            guard unknown.isEmpty else { throw StoreError.newerSchema(unknown.sorted().map { "\($0)" }) }
            for migration in migrations
            where !applied.contains(migration.version) && migration.version <= version {
                logger.info("applying PostgreSQL migration \(migration.version): \(migration.name)")
                for statement in migration.statements {
                    try await connection.execute(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await migration.then?(connection, logger)
                try await connection.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                )
            }
        }
    }

    /// Refuses a fixed pool larger than PostgreSQL lets this role open here (`CONNECTION LIMIT` on the role or the
    /// database, `max_connections` less the superusers' reserve): PostgresNIO's pool, unable to open its minimum, was
    /// seen to stop serving even the connections it had (every call waited out its bound). Several instances that fit
    /// one by one but not together are not caught here (docs/SERVER.md).
    private func checkConnectionLimit() async throws(StoreError) {
        let allowed = try await first(
            """
            SELECT least(
                CASE WHEN r.rolconnlimit >= 0 AND NOT r.rolsuper THEN r.rolconnlimit END,
                CASE WHEN d.datconnlimit >= 0 AND NOT r.rolsuper THEN d.datconnlimit END,
                current_setting('max_connections')::int
                    - CASE WHEN r.rolsuper THEN 0 ELSE current_setting('superuser_reserved_connections')::int END)
            FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()
            """
        ) { try $0.decode(Int?.self) }
        let minimum = configuration.minimumConnections ?? configuration.maximumConnections
        if let allowed = allowed ?? nil, minimum > allowed {
            throw StoreError(
                .invalidConfiguration,
                "the pool keeps \(minimum) connections open (pool_min_conns, by default pool_max_conns), but PostgreSQL "
                    + "lets this role open \(allowed) to this database: lower pool_max_conns, or set pool_min_conns=0 "
                    + "to open connections on demand")
        }
    }

    // MARK: Users

    public func createUser(_ user: StoredUser) async throws(StoreError) {
        try user.validate()
        try await change(user.postgresInsert)
    }

    public func user(id: UUID) async throws(StoreError) -> StoredUser? {
        try await first(
            "SELECT \(unescaped: StoreColumns.user) FROM users WHERE id = \(id)", StoredUser.init(postgresRow:))
    }

    public func user(handle: Data) async throws(StoreError) -> StoredUser? {
        try await first(
            try "SELECT \(unescaped: StoreColumns.user) FROM users WHERE user_handle = \(handle)",
            StoredUser.init(postgresRow:))
    }

    public func user(named name: String) async throws(StoreError) -> StoredUser? {
        try await first(
            "SELECT \(unescaped: StoreColumns.user) FROM users WHERE name_key = \(StoredUser.nameKey(name))",
            StoredUser.init(postgresRow:))
    }

    public func user(confusableWith name: String) async throws(StoreError) -> StoredUser? {
        let skeletons = Array(NameSkeleton.candidates(of: name))
        return try await first(
            "SELECT \(unescaped: StoreColumns.user) FROM users WHERE name_skeleton = ANY(\(skeletons)) AND name_key <> \(StoredUser.nameKey(name)) LIMIT 1",
            StoredUser.init(postgresRow:))
    }

    public func deleteUser(id: UUID) async throws(StoreError) {
        // Credentials, sessions, Apple links and web flows go with it: ON DELETE CASCADE.
        try await requireChange(otherwise: "the user does not exist", "DELETE FROM users WHERE id = \(id) RETURNING 1")
    }

    // MARK: Credentials

    public func addCredential(_ credential: StoredCredential) async throws(StoreError) {
        try credential.validate()
        try await change(credential.postgresInsert)
    }

    public func credential(id: Data) async throws(StoreError) -> StoredCredential? {
        try await first(
            "SELECT \(unescaped: StoreColumns.credential) FROM credentials WHERE id = \(id)",
            StoredCredential.init(postgresRow:))
    }

    public func account(named name: String) async throws(StoreError) -> StoredAccount? {
        try await account(AccountNamed(nameKey: StoredUser.nameKey(name)))
    }

    public func account(ofCredential id: Data) async throws(StoreError) -> StoredAccount? {
        try await account(AccountOfCredential(credentialID: id))
    }

    /// An account with its credentials, in one statement (``StoreColumns/account(where:)``): a sign-in's first read,
    /// prepared.
    private func account(_ statement: some PreparedQuery) async throws(StoreError) -> StoredAccount? {
        try await pool { [logger] client in
            try StoredAccount(postgresRows: try await client.all(statement, logger: logger) { $0 })
        }
    }

    private struct AccountNamed: PreparedQuery {
        static let name = "latchkey_account_named"
        static let sql = StoreColumns.account(where: "u.name_key = $1")
        static let bindingDataTypes: [PostgresDataType] = [.text]
        let nameKey: String

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(nameKey)
            return bindings
        }
    }

    private struct AccountOfCredential: PreparedQuery {
        static let name = "latchkey_account_of_credential"
        static let sql = StoreColumns.account(where: "u.id = (SELECT user_id FROM credentials WHERE id = $1)")
        static let bindingDataTypes: [PostgresDataType] = [.bytea]
        let credentialID: Data

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            try bindings.append(credentialID)
            return bindings
        }
    }

    public func credentials(ofUser userID: UUID) async throws(StoreError) -> [StoredCredential] {
        try await all(
            "SELECT \(unescaped: StoreColumns.credential) FROM credentials WHERE user_id = \(userID) ORDER BY created_at, id",
            StoredCredential.init(postgresRow:))
    }

    public func renameCredential(id: Data, ofUser userID: UUID, to label: String?) async throws(StoreError) {
        try await requireChange(
            otherwise: "the user has no such credential",
            try "UPDATE credentials SET label = \(label) WHERE id = \(id) AND user_id = \(userID) RETURNING 1"
        )
    }

    public func deleteCredential(
        id: Data, ofUser userID: UUID, keepingAnotherWayIn: Bool, sparingSession spared: Data?
    ) async throws(StoreError) {
        guard keepingAnotherWayIn || spared != nil else {
            return try await requireChange(
                otherwise: "the user has no such credential",
                try "DELETE FROM credentials WHERE id = \(id) AND user_id = \(userID) RETURNING 1"
            )
        }
        try await transaction { [self] connection in
            // Locking the user's row serialises this user's deletions, so each one counts what the others left.
            _ = try await connection.execute("SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE", logger: logger)
            if let spared {
                try await connection.execute(
                    "UPDATE sessions SET credential_id = NULL WHERE token_hash = \(spared) AND credential_id = \(id)",
                    logger: logger
                )
            }
            let deleted = try await connection.execute(
                "DELETE FROM credentials WHERE id = \(id) AND user_id = \(userID) RETURNING 1", logger: logger
            )
            guard deleted > 0 else { throw StoreError(.notFound, "the user has no such credential") }
            if keepingAnotherWayIn {
                try await requireWayIn(
                    of: userID, on: connection, otherwise: "the credential is the user's last way to sign in")
            }
        }
    }

    /// Throws ``StoreError/Code/conflict`` with `message` unless `userID` can still sign in (``StoreColumns/hasWayIn``):
    /// run after removing a way in, in its transaction, which throwing rolls back.
    func requireWayIn(of userID: UUID, on connection: PostgresConnection, otherwise message: String) async throws {
        let left = try await connection.first(
            "SELECT \(unescaped: StoreColumns.hasWayIn) FROM users WHERE id = \(userID)", logger: logger
        ) { try $0.decode(Bool.self) }
        guard left == true else { throw StoreError(.conflict, message) }
    }

    // MARK: Spent tickets

    public func spendTicket(_ ticket: SpentTicket) async throws(StoreError) -> Bool {
        try ticket.validate()
        return try await change(ticket.postgresSpend) > 0
    }

    public func purgeSpentTickets(now: Date) async throws(StoreError) -> Int {
        try await change("DELETE FROM spent_tickets WHERE expires_at <= \(now) RETURNING 1")
    }

    // MARK: Sessions

    public func createSession(_ session: StoredSession) async throws(StoreError) {
        try session.validate()
        try await change(session.postgresInsert)
    }

    public func session(tokenHash: Data, now: Date) async throws(StoreError) -> StoredSession? {
        try await first(
            "SELECT \(unescaped: StoreColumns.session) FROM sessions WHERE token_hash = \(tokenHash) AND expires_at > \(now)",
            StoredSession.init(postgresRow:))
    }

    public func sessions(ofUser userID: UUID, now: Date) async throws(StoreError) -> [StoredSession] {
        try await all(
            """
            SELECT \(unescaped: StoreColumns.session) FROM sessions WHERE user_id = \(userID) AND expires_at > \(now)
            ORDER BY created_at DESC, token_hash DESC
            """, StoredSession.init(postgresRow:))
    }

    public func markSessionSeen(tokenHash: Data, at time: Date) async throws(StoreError) {
        try await change("UPDATE sessions SET last_seen_at = \(time) WHERE token_hash = \(tokenHash)")
    }

    public func deleteSession(tokenHash: Data) async throws(StoreError) {
        try await change("DELETE FROM sessions WHERE token_hash = \(tokenHash)")
    }

    public func deleteSessions(ofUser userID: UUID) async throws(StoreError) -> Int {
        try await change("DELETE FROM sessions WHERE user_id = \(userID) RETURNING 1")
    }

    public func purgeExpiredSessions(now: Date) async throws(StoreError) -> Int {
        try await change("DELETE FROM sessions WHERE expires_at <= \(now) RETURNING 1")
    }

    // MARK: Ceremony outcomes

    public func commitRegistration(
        _ credential: StoredCredential,
        creating user: StoredUser?,
        session: StoredSession?
    ) async throws(StoreError) {
        try OutcomeChecks.checkRegistration(credential, creating: user, session: session)
        try await transaction { [self] connection in
            if let user { try await connection.execute(user.postgresInsert, logger: logger) }
            try await connection.execute(credential.postgresInsert, logger: logger)
            if let session { try await connection.execute(session.postgresInsert, logger: logger) }
        }
    }

    public func commitRegistration(
        spending ticket: SpentTicket, _ credential: StoredCredential, creating user: StoredUser?,
        session: StoredSession?
    ) async throws(StoreError) -> Bool {
        try ticket.validate()
        try OutcomeChecks.checkRegistration(credential, creating: user, session: session)
        return try await transaction(recordingIf: { $0 }) { [self] connection in
            guard try await connection.execute(ticket.postgresSpend, logger: logger) > 0 else { return false }
            if let user { try await connection.execute(user.postgresInsert, logger: logger) }
            try await connection.execute(credential.postgresInsert, logger: logger)
            if let session { try await connection.execute(session.postgresInsert, logger: logger) }
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
        try session?.validate()
        // One statement (migration 7's function) instead of a five-round-trip transaction; what it raises undoes it all.
        // The sign-in's audit event (``AuditTrail``) is written by the same statement, when the commit is made.
        let events = AuditTrail.claim()
        let event = events.count == 1 && events[0].notify.isEmpty ? events[0] : nil
        let statement = CommitAuthentication(
            ticket: ticket, credentialID: credentialID, newSignCount: newSignCount, backupEligible: backupEligible,
            backedUp: backedUp, usedAt: usedAt, session: session, previousSignCount: previousSignCount, event: event)
        let commit: @Sendable (any PostgresQueryRunner) async throws -> Bool? = { [logger] runner in
            do {
                return try await runner.all(statement, logger: logger) { try $0.decode(Bool.self) }.first
            } catch let error as PSQLError {
                throw Self.commitFailure(error) ?? error
            }
        }
        let committed =
            events.count > 0 && event == nil
            ? try await transaction(recording: events, recordingIf: { $0 == true }) { try await commit($0) }
            : try await pool { try await commit($0) }
        guard let committed else { throw StoreError(.databaseError, "PostgreSQL: the sign-in commit returned no row") }
        return committed
    }

    /// A sign-in's commit: migration 7's function, and the sign-in's audit event when the commit is made.
    private struct CommitAuthentication: PreparedQuery {
        static let name = "latchkey_commit_authentication"
        static let sql = """
            WITH outcome AS MATERIALIZED (
                SELECT latchkey_commit_authentication(
                    $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) AS committed
            ), audit AS (
                INSERT INTO audit_events (type, occurred_at, user_id, actor, ip, user_agent, authenticator, detail)
                SELECT $17, $18, $19, $20, $21, $22, $23, $24 FROM outcome WHERE committed AND $25
            )
            SELECT committed FROM outcome
            """
        static let bindingDataTypes: [PostgresDataType] = [
            .text, .timestamptz, .bytea, .int8, .bool, .bool, .timestamptz, .int8,
            .bytea, .uuid, .timestamptz, .timestamptz, .bytea, .timestamptz, .text, .text,
            .text, .timestamptz, .uuid, .text, .text, .text, .text, .text, .bool,
        ]
        let ticket: SpentTicket
        let credentialID: Data
        let newSignCount: UInt32
        let backupEligible: Bool
        let backedUp: Bool
        let usedAt: Date
        let session: StoredSession?
        let previousSignCount: UInt32
        let event: AuditEvent?

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 25)
            bindings.append(ticket.id)
            bindings.append(ticket.expiresAt)
            try bindings.append(credentialID)
            bindings.append(Int64(newSignCount))
            bindings.append(backupEligible)
            bindings.append(backedUp)
            bindings.append(usedAt)
            bindings.append(Int64(previousSignCount))
            try bindings.append(session?.tokenHash)
            bindings.append(session?.userID)
            bindings.append(session?.createdAt)
            bindings.append(session?.expiresAt)
            try bindings.append(session?.credentialID)
            bindings.append(session?.verifiedAt)
            bindings.append(session?.device)
            bindings.append(session?.network)
            bindings.append(event?.type)
            bindings.append(event?.occurredAt)
            bindings.append(event?.userID)
            bindings.append(event?.actor)
            bindings.append(event?.ip)
            bindings.append(event?.userAgent)
            bindings.append(event?.authenticator)
            bindings.append(event?.detail)
            bindings.append(event != nil)
            return bindings
        }
    }

    /// The ``StoreError`` for an exception `latchkey_commit_authentication` raised on purpose; nil for any other.
    private static func commitFailure(_ error: PSQLError) -> StoreError? {
        switch error.serverInfo?[.sqlState] {
        case "LK409": OutcomeChecks.signCountMoved
        case "LK404": OutcomeChecks.credentialMissing
        case "LK422": OutcomeChecks.sessionForAnotherUser
        default: nil
        }
    }

    // MARK: Access

    /// The rows `query` returns on a pooled connection (``pool(_:)``), each decoded.
    func all<T: Sendable>(
        _ query: @autoclosure @escaping @Sendable () throws -> PostgresQuery,
        _ decode: @escaping @Sendable (PostgresRow) throws -> T
    ) async throws(StoreError) -> [T] {
        try await pool { [logger] client in try await client.all(query(), logger: logger, decode) }
    }

    /// The first row `query` returns on a pooled connection, decoded; nil if it returns none.
    func first<T: Sendable>(
        _ query: @autoclosure @escaping @Sendable () throws -> PostgresQuery,
        _ decode: @escaping @Sendable (PostgresRow) throws -> T
    ) async throws(StoreError) -> T? {
        try await all(query(), decode).first
    }

    /// Runs a `… RETURNING 1` change that must touch a row; throws ``StoreError/Code/notFound`` with `message` otherwise.
    private func requireChange(
        otherwise message: String, _ query: @autoclosure @escaping @Sendable () throws -> PostgresQuery
    ) async throws(StoreError) {
        // The events pending go only with a change made: a rename or deletion that found nothing records nothing.
        guard try await change(recordingIf: { $0 > 0 }, query()) > 0 else { throw StoreError(.notFound, message) }
    }

    /// A change that is one statement (``write(recordingIf:_:)``); returns how many rows it returned (`RETURNING 1`
    /// counts the rows changed).
    @discardableResult
    func change(
        recordingIf changed: @escaping @Sendable (Int) -> Bool = { _ in true },
        _ query: @autoclosure @escaping @Sendable () throws -> PostgresQuery
    ) async throws(StoreError) -> Int {
        try await write(recordingIf: changed) { [logger] client in try await client.execute(query(), logger: logger) }
    }

    /// Reads on pooled connections, within ``Configuration/operationTimeout``; any error becomes a ``StoreError``.
    /// Changes go through ``write(recordingIf:_:)`` or ``transaction(limit:recording:recordingIf:_:)``, which write the audit
    /// events pending for them.
    @discardableResult
    func pool<T: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws(StoreError) -> T
    {
        do {
            return try await OperationTimeout.run(limit: configuration.operationTimeout) { [client] in
                try await body(client)
            }
        } catch {
            throw StoreError(postgres: error)
        }
    }

    /// A change that is one statement: on a pooled connection, or in a transaction with the audit events pending for
    /// this task (``AuditTrail``) when there are any.
    /// `changed` as for ``transaction(limit:recording:recordingIf:_:)``.
    @discardableResult
    func write<T: Sendable>(
        recordingIf changed: @escaping @Sendable (T) -> Bool = { _ in true },
        _ body: @escaping @Sendable (any PostgresQueryRunner) async throws -> T
    ) async throws(StoreError) -> T {
        let events = AuditTrail.claim()
        guard !events.isEmpty else { return try await pool { try await body($0) } }
        return try await transaction(recording: events, recordingIf: changed) { try await body($0) }
    }

    /// One transaction on one connection, within `limit`: committed if `body` returns, rolled back if it throws. Audit
    /// events pending for this task (``AuditTrail``) are written in it, after `body`, when `changed` says its value is
    /// a change made (a spent code, not a wrong one).
    func transaction<T: Sendable>(
        limit: Duration? = nil, recording events: [AuditEvent] = AuditTrail.claim(),
        recordingIf changed: @escaping @Sendable (T) -> Bool = { _ in true },
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await OperationTimeout.run(limit: limit ?? configuration.operationTimeout) { [client, logger] in
                try await client.withTransaction(logger: logger) { connection in
                    let value = try await body(connection)
                    if changed(value) {
                        for event in events { try await connection.execute(event.postgresInsert, logger: logger) }
                    }
                    return value
                }
            }
        } catch {
            throw StoreError(postgres: error)
        }
    }
}
