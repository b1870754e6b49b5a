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

    /// Runs a store with this pool on a new database, makes one call, and returns how many connections the database
    /// has: once the count reaches `expected` (or after 5 s), read again a little later, so that a pool still opening
    /// more is seen.
    private func connections(minimumConnections: Int?, maximumConnections: Int, expecting expected: Int) async throws -> Int {
        let url = try #require(Backend.postgresURL)
        guard case .postgres(var configuration) = try StoreURL(url) else { throw StoreError(.invalidConfiguration, url) }
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
        let store = try PostgresStore(configuration: configuration, logger: Self.logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await admin.run() }
            defer { group.cancelAll() }
            // `database` is a generated plain identifier.
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(database)"), logger: Self.logger)
            let storeTask = Task { await store.run() }
            // Whatever happens while counting, the store stops and the database goes.
            let counted: Result<Int, any Error>
            do {
                counted = .success(try await settledCount(in: database, admin: admin, store: store, expected: expected))
            } catch {
                counted = .failure(error)
            }
            storeTask.cancel()
            await storeTask.value
            try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(database) WITH (FORCE)"), logger: Self.logger)
            return try counted.get()
        }
    }

    private func settledCount(in database: String, admin: PostgresClient, store: PostgresStore, expected: Int) async throws -> Int {
        // One call (the database has no tables, so it fails, but it takes a connection).
        _ = try? await store.user(named: "nobody")
        func count() async throws -> Int {
            let rows = try await admin.query(
                "SELECT count(*)::int8 FROM pg_stat_activity WHERE datname = \(database)", logger: Self.logger
            )
            var count = 0
            for try await value in rows.decode(Int64.self) { count = Int(value) }
            return count
        }
        for _ in 0..<50 where try await count() != expected {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(300))
        return try await count()
    }
}
