import Foundation
import LatchkeyStore
import LatchkeyTestSupport
import Logging
import Testing

/// TLS to PostgreSQL with a private CA, against the test cluster, whose certificate (from a CA scripts/postgres.sh
/// makes, `LATCHKEY_TEST_POSTGRES_CA`) names `localhost` only: `sslmode=require` verifies the certificate and the host
/// name (libpq's verify-full) against `sslrootcert`, and refuses any other.
@Suite(
    "PostgreSQL over TLS",
    .enabled(
        if: Backend.postgresURL != nil && ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES_CA"] != nil,
        "needs LATCHKEY_TEST_POSTGRES_URL and LATCHKEY_TEST_POSTGRES_CA (scripts/test.sh sets both)"))
struct PostgresTLSTests {
    static let ca = ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES_CA"] ?? ""

    static let quietLogger: Logger = {
        var logger = Logger(label: "latchkey.store.test")
        logger.logLevel = .critical
        return logger
    }()

    /// The test cluster's URL with `host` and `parameters` in place of its own.
    static func url(host: String, _ parameters: String) throws -> String {
        let base = try #require(Backend.postgresURL)
        var components = try #require(URLComponents(string: base))
        components.host = host
        components.query = parameters
        return try #require(components.string)
    }

    /// Migrates and reads through a store made from `url`, giving each call `timeout` (a refused connection is seen only
    /// as calls that time out, since the pool keeps trying; a connection that works may be slow under the parallel run).
    static func use(_ url: String, timeout: Duration = .seconds(60)) async throws(StoreError) {
        guard case .postgres(var configuration) = try StoreURL(url) else {
            throw StoreError(.invalidConfiguration, "not a postgres URL")
        }
        configuration.schema = "tls_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        configuration.operationTimeout = timeout
        configuration.maximumConnections = 1
        let store = try PostgresStore(configuration: configuration, logger: quietLogger)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.migrate()
                _ = try await store.user(named: "nobody")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "\(error)")
        }
    }

    @Test("verify-full with the private CA and the certificate's host name connects")
    func verifiedConnection() async throws {
        try await Self.use(try Self.url(host: "localhost", "sslmode=verify-full&sslrootcert=\(Self.ca)"))
        try await Self.use(try Self.url(host: "localhost", "sslmode=require&sslrootcert=\(Self.ca)"))
    }

    @Test("prefer encrypts without verifying, as libpq's prefer does")
    func preferConnects() async throws {
        try await Self.use(try Self.url(host: "127.0.0.1", "sslmode=prefer"))
    }

    @Test("a host name the certificate does not name, or a CA that did not sign it, is refused")
    func refusals() async throws {
        await expectStoreError(.unavailable) {
            try await Self.use(
                try Self.url(host: "127.0.0.1", "sslmode=require&sslrootcert=\(Self.ca)"), timeout: .seconds(5))
        }
        await expectStoreError(.unavailable) {
            try await Self.use(try Self.url(host: "localhost", "sslmode=require"), timeout: .seconds(5))
        }
    }

    @Test("an sslrootcert that is not a readable file is a configuration error")
    func unreadableRootCertificate() {
        #expect(throws: StoreError.self) {
            _ = try StoreURL("postgres://u@db.example.com/d?sslrootcert=/nonexistent/ca.pem")
        }
        #expect(PostgresStore.Configuration.defaultTLS(host: "db.example.com") == .require)
        #expect(PostgresStore.Configuration.defaultTLS(host: "127.0.0.1") == .prefer)
    }
}
