import Foundation
import LatchkeyStore
import LatchkeyTestSupport
import Logging
import PostgresNIO
import Testing

/// A statement that hangs on a real PostgreSQL (its table locked by another session): the store gives up after its
/// operation timeout with `store.unavailable`, and once the lock is gone the same store answers again.
///
/// Timing-dependent (its calls have a 2 s limit): it runs in the timing step of scripts/test.sh, alone on the cores,
/// and is skipped in the parallel run.
@Suite(
    "PostgreSQL: a statement that hangs",
    .enabled(if: Backend.postgresURL != nil && ProcessInfo.processInfo.environment["LATCHKEY_TEST_TIMING"] == "1"))
struct PostgresHangTests {
    @Test(.timeLimit(.minutes(1)))
    func aHangingStatementTimesOutAndTheStoreRecovers() async throws {
        let url = try #require(Backend.postgresURL)
        guard case .postgres(var configuration) = try StoreURL(url) else { return }
        let schema = "lk_hang_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        configuration.schema = schema
        configuration.operationTimeout = .seconds(2)
        configuration.minimumConnections = 0
        let logger = TestDatabase.logger
        let store = try PostgresStore(configuration: configuration, logger: logger)
        // Another session, as a backup or an operator's shell would be.
        let other = PostgresClient(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable),
            backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            group.addTask { await other.run() }
            defer { group.cancelAll() }
            try await store.migrate()
            try await other.withConnection { connection in
                _ = try await connection.query("BEGIN", logger: logger)
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "LOCK TABLE \(schema).password_throttles IN ACCESS EXCLUSIVE MODE"),
                    logger: logger)
                let started = ContinuousClock.now
                await expectStoreError(.unavailable) { _ = try await store.passwordThrottle(key: "name:alice") }
                #expect(ContinuousClock.now - started < .seconds(8), "bounded by the operation timeout")
                _ = try await connection.query("COMMIT", logger: logger)
            }
            #expect(try await store.passwordThrottle(key: "name:alice") == nil, "the store answers again")
            try await other.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger)
        }
    }
}
