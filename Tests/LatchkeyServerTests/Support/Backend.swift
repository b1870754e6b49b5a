import Foundation
import Logging
import Testing
@testable import LatchkeyStore

/// The databases the server suites run against.
enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The PostgreSQL server to test against (scripts/test.sh starts one with scripts/postgres.sh); nil skips
    /// the PostgreSQL cases.
    static let postgresURL: String? = {
        guard let url = ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }()

    static let skipMessage = "LATCHKEY_TEST_POSTGRES_URL is unset: the PostgreSQL cases are skipped (scripts/test.sh sets it; or run scripts/postgres.sh start DIR PORT)"

    /// SQLite always; PostgreSQL when a server is given.
    static var available: [Backend] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// A fresh, empty database for one test: a SQLite file in its own directory, or a PostgreSQL schema of its own.
/// Several stores (server instances) can open it at once.
struct TestDatabase: Sendable {
    let backend: Backend
    private let sqlitePath: String
    private let directory: URL
    private let postgres: PostgresStore.Configuration?

    static let logger: Logger = {
        var logger = Logger(label: "latchkey.server.test")
        logger.logLevel = .error
        return logger
    }()

    init(_ backend: Backend) throws {
        self.backend = backend
        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-server-\(suffix)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        sqlitePath = directory.appendingPathComponent("store.sqlite").path
        switch backend {
        case .sqlite:
            postgres = nil
        case .postgres:
            let url = try #require(Backend.postgresURL, "\(Backend.skipMessage)")
            guard case .postgres(var configuration) = try StoreURL(url) else {
                throw StoreError(.invalidConfiguration, "LATCHKEY_TEST_POSTGRES_URL is not a postgres:// URL")
            }
            configuration.schema = "lk_server_\(suffix)"
            configuration.maximumConnections = 8
            postgres = configuration
        }
    }

    /// A new store on this database (not yet running or migrated: the server does both).
    func makeStore() throws -> any LatchkeyStore {
        if let postgres {
            return try PostgresStore(configuration: postgres, logger: Self.logger)
        }
        return try SQLiteStore(path: sqlitePath)
    }

    /// Removes the database.
    func destroy() async {
        try? FileManager.default.removeItem(at: directory)
        guard var configuration = postgres, let schema = configuration.schema else { return }
        configuration.schema = nil
        guard let store = try? PostgresStore(configuration: configuration, logger: Self.logger) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            _ = try? await store.client.execute("DROP SCHEMA IF EXISTS \(unescaped: schema) CASCADE", logger: Self.logger)
            group.cancelAll()
        }
    }
}
