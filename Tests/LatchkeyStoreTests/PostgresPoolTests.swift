import Foundation
import LatchkeyStore
import LatchkeyTestSupport
import Logging
import PostgresNIO
import Testing

/// The connection pool against a real PostgreSQL server, each test in a database of its own so that
/// `pg_stat_activity` counts only the store's connections.
@Suite("PostgresStore's connection pool", .enabled(if: Backend.postgresURL != nil, "\(Backend.skipMessage)"))
struct PostgresPoolTests {
    static let logger: Logger = {
        var logger = Logger(label: "latchkey.store.pool-test")
        logger.logLevel = .critical
        return logger
    }()

    @Test("the default pool is fixed: it opens all its connections and keeps them while idle")
    func fixedPoolOpensEveryConnection() async throws {
        let count = try await connections(minimumConnections: nil, maximumConnections: 3, expecting: 3)
        #expect(count == 3)
    }

    @Test("pool_min_conns=0 opens connections on demand: one call, one connection")
    func onDemandPoolOpensWhatItNeeds() async throws {
        let count = try await connections(minimumConnections: 0, maximumConnections: 3, expecting: 1)
        #expect(count == 1)
    }

    @Test("pool_keepalive runs PostgresNIO's keep-alive query on an idle connection; by default none runs")
    func keepAliveQueriesAreOptIn() async throws {
        // PostgreSQL shows each connection's last statement in pg_stat_activity.query.
        let keptAlive = try await withStore(keepAlive: .seconds(1)) { database, admin in
            try await eventually { try await lastQueries(in: database, admin: admin).contains("SELECT 1;") }
        }
        #expect(keptAlive, "an idle connection ran SELECT 1 within 20 s of a 1 s keep-alive")
        let queries = try await withStore(keepAlive: nil) { database, admin in
            try await Task.sleep(for: .milliseconds(2500))
            return try await lastQueries(in: database, admin: admin)
        }
        #expect(!queries.isEmpty && !queries.contains("SELECT 1;"), "\(queries)")
    }

    @Test(
        "a fixed pool larger than the role may open is refused at start with a clear error; an on-demand one serves"
    )
    func poolBeyondTheConnectionLimit() async throws {
        let url = try #require(Backend.postgresURL)
        guard case .postgres(var configuration) = try StoreURL(url) else {
            throw StoreError(.invalidConfiguration, url)
        }
        let suffix = UInt32.random(in: 0...UInt32.max)
        let (role, database) = ("lk_limited_\(suffix)", "lk_limited_\(suffix)")
        let admin = PostgresClient(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable
            ),
            backgroundLogger: Self.logger
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await admin.run() }
            defer { group.cancelAll() }
            // `role` and `database` are generated plain identifiers.
            for statement in [
                "CREATE ROLE \(role) LOGIN CONNECTION LIMIT 2", "CREATE DATABASE \(database) OWNER \(role)",
            ] {
                try await admin.query(PostgresQuery(unsafeSQL: statement), logger: Self.logger)
            }
            configuration.username = role
            configuration.password = nil
            configuration.database = database
            configuration.maximumConnections = 6
            // The parallel run loads the two cores; a call may wait for a connection longer than a server's would.
            configuration.operationTimeout = .seconds(60)

            /// Runs a store of this pool, migrates it and makes six calls at once; the migration's error, if any.
            func attempt(minimumConnections: Int?) async throws -> StoreError? {
                configuration.minimumConnections = minimumConnections
                let store = try PostgresStore(configuration: configuration, logger: Self.logger)
                let storeTask = Task { await store.run() }
                defer { storeTask.cancel() }
                do {
                    try await store.migrate()
                } catch {
                    // The next attempt needs the role's connections free.
                    storeTask.cancel()
                    await storeTask.value
                    _ = try await eventually {
                        let rows = try await admin.query(
                            "SELECT count(*)::int8 FROM pg_stat_activity WHERE usename = \(role)", logger: Self.logger)
                        for try await count in rows.decode(Int64.self) { return count == 0 }
                        return true
                    }
                    return error
                }
                try await withThrowingTaskGroup(of: Void.self) { calls in
                    for index in 0..<6 {
                        calls.addTask { () async throws -> Void in
                            let user = try await store.user(named: "nobody\(index)")
                            #expect(user == nil)
                        }
                    }
                    try await calls.waitForAll()
                }
                return nil
            }
            let refused = try await attempt(minimumConnections: nil)
            #expect(refused?.code == .invalidConfiguration, "\(String(describing: refused))")
            #expect(refused?.message.contains("lets this role open 2") == true, "\(String(describing: refused))")
            #expect(try await attempt(minimumConnections: 0) == nil)

            for statement in ["DROP DATABASE \(database) WITH (FORCE)", "DROP ROLE \(role)"] {
                try await admin.query(PostgresQuery(unsafeSQL: statement), logger: Self.logger)
            }
        }
    }

    /// Runs a store with this pool on a new database, makes one call, and returns how many connections the database
    /// has: once the count reaches `expected` (or after 5 s), read again a little later, so that a pool still opening
    /// more is seen.
    private func connections(minimumConnections: Int?, maximumConnections: Int, expecting expected: Int) async throws
        -> Int
    {
        try await withStore(minimumConnections: minimumConnections, maximumConnections: maximumConnections) {
            database, admin in
            _ = try await eventually { try await count(in: database, admin: admin) == expected }
            try await Task.sleep(for: .milliseconds(300))
            return try await count(in: database, admin: admin)
        }
    }

    /// Runs a store with this pool on a new database of its own, makes one call on it, and returns what `body` finds
    /// through `admin`, a client of the server's own database. Whatever `body` does, the store stops and the database
    /// goes.
    private func withStore<Result: Sendable>(
        minimumConnections: Int? = 1, maximumConnections: Int = 1, keepAlive: Duration? = nil,
        _ body: (_ database: String, _ admin: PostgresClient) async throws -> Result
    ) async throws -> Result {
        let url = try #require(Backend.postgresURL)
        guard case .postgres(var configuration) = try StoreURL(url) else {
            throw StoreError(.invalidConfiguration, url)
        }
        let database = "lk_pool_\(UInt32.random(in: 0...UInt32.max))"
        let admin = PostgresClient(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable
            ),
            backgroundLogger: Self.logger
        )
        configuration.database = database
        configuration.maximumConnections = maximumConnections
        configuration.minimumConnections = minimumConnections
        if let keepAlive { configuration.keepAliveInterval = keepAlive }
        let store = try PostgresStore(configuration: configuration, logger: Self.logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await admin.run() }
            defer { group.cancelAll() }
            // `database` is a generated plain identifier.
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(database)"), logger: Self.logger)
            let storeTask = Task { await store.run() }
            let found: Swift.Result<Result, any Error>
            do {
                // One call (the database has no tables, so it fails, but it takes a connection).
                _ = try? await store.user(named: "nobody")
                found = .success(try await body(database, admin))
            } catch {
                found = .failure(error)
            }
            storeTask.cancel()
            await storeTask.value
            try await admin.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE \(database) WITH (FORCE)"), logger: Self.logger)
            return try found.get()
        }
    }

    /// Whether `condition` held within 5 s, asked every 100 ms.
    /// Whether `condition` holds within 20 s (connections open slowly while the whole suite loads the two cores).
    private func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    private func count(in database: String, admin: PostgresClient) async throws -> Int {
        let rows = try await admin.query(
            "SELECT count(*)::int8 FROM pg_stat_activity WHERE datname = \(database)", logger: Self.logger
        )
        var count = 0
        for try await value in rows.decode(Int64.self) { count = Int(value) }
        return count
    }

    /// The last statement of each of the database's connections.
    private func lastQueries(in database: String, admin: PostgresClient) async throws -> [String] {
        let rows = try await admin.query(
            "SELECT query FROM pg_stat_activity WHERE datname = \(database)", logger: Self.logger)
        var queries: [String] = []
        for try await query in rows.decode(String.self) { queries.append(query) }
        return queries
    }
}
