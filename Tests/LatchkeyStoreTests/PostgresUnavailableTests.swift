import Foundation
import LatchkeyStore
import Logging
import Testing

/// Timing-dependent: it runs in its own step of scripts/test.sh, with nothing else on the cores
/// (`LATCHKEY_TEST_TIMING=1 swift test --filter …`), and is skipped in the parallel run.
@Suite(
    "PostgresStore without a server", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["LATCHKEY_TEST_TIMING"] == "1"))
struct PostgresUnavailableTests {
    /// Port 1 on loopback: nothing listens there, so every connection attempt is refused.
    static let unreachable = PostgresStore.Configuration(
        host: "127.0.0.1", port: 1, username: "nobody", database: "none", tls: .disable,
        operationTimeout: .milliseconds(500)
    )

    static let quietLogger: Logger = {
        var logger = Logger(label: "latchkey.store.test")
        logger.logLevel = .critical
        return logger
    }()

    @Test(.timeLimit(.minutes(1)))
    func unreachableServerFailsFastAsUnavailable() async throws {
        let store = try PostgresStore(configuration: Self.unreachable, logger: Self.quietLogger)
        let started = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            await expectStoreError(.unavailable) { try await store.migrate() }
            await expectStoreError(.unavailable) { try await store.user(named: "alice") }
            await expectStoreError(.unavailable) {
                _ = try await store.commitAuthentication(
                    spending: SpentTicket(id: "t", expiresAt: Date()), credentialID: Data([1]), newSignCount: 1,
                    backupEligible: true, backedUp: false, usedAt: Date(), session: nil,
                    previousSignCount: 0
                )
            }
            group.cancelAll()
        }
        #expect(ContinuousClock.now - started < .seconds(10), "each call gives up after operationTimeout")
    }

    @Test func invalidConfigurationIsRefused() {
        var configuration = Self.unreachable
        configuration.schema = "Robert'); DROP TABLE users;--"
        #expect {
            try PostgresStore(configuration: configuration)
        } throws: { error in
            (error as? StoreError)?.code == .invalidConfiguration
        }
        configuration.schema = nil
        configuration.operationTimeout = .zero
        #expect {
            try PostgresStore(configuration: configuration)
        } throws: { error in
            (error as? StoreError)?.code == .invalidConfiguration
        }
    }
}
