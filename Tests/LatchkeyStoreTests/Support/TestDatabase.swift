import Foundation
import Logging
import Testing
@testable import LatchkeyStore

/// The backends the shared suite runs against.
enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The PostgreSQL server to test against (`scripts/postgres.sh start` prints one); nil skips the PostgreSQL cases.
    static let postgresURL: String? = {
        guard let url = ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }()

    static let skipMessage = "LATCHKEY_TEST_POSTGRES_URL is unset: PostgreSQL cases are skipped (start a server with scripts/postgres.sh start DIR PORT)"

    /// SQLite always; PostgreSQL when a server is given.
    static var available: [Backend] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// A fresh, empty database for one test: a SQLite file in its own temporary directory, or a PostgreSQL schema of
/// its own (so tests running in parallel never see each other's rows).
struct TestDatabase: Sendable {
    enum Location: Sendable {
        case sqlite(path: String, directory: URL)
        case postgres(PostgresStore.Configuration)
    }

    let location: Location

    /// Errors only: the pool logs every connection it opens or abandons (info), and warns when a query races the
    /// start of `run()` (harmless: the query waits for the pool).
    private static let logger: Logger = {
        var logger = Logger(label: "latchkey.store.test")
        logger.logLevel = .error
        return logger
    }()

    init(_ backend: Backend) throws {
        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-store-\(suffix)")
            location = .sqlite(path: directory.appendingPathComponent("store.sqlite").path, directory: directory)
        case .postgres:
            let url = try #require(Backend.postgresURL, "\(Backend.skipMessage)")
            guard case .postgres(var configuration) = try StoreURL(url) else {
                Issue.record("LATCHKEY_TEST_POSTGRES_URL is not a postgres:// URL: \(url)")
                throw StoreError(.invalidConfiguration, "not a postgres URL")
            }
            configuration.schema = "lk_test_\(suffix)"
            configuration.maximumConnections = 8
            location = .postgres(configuration)
        }
    }

    /// Opens a store on this database (migrating it), runs `body`, and closes the store.
    func withStore<T: Sendable>(_ body: (any LatchkeyStore) async throws -> T) async throws -> T {
        switch location {
        case .sqlite(let path, _):
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            return try await body(store)
        case .postgres(let configuration):
            let store = try PostgresStore(configuration: configuration, logger: Self.logger)
            return try await Self.running(store) {
                try await store.migrate()
                return try await body(store)
            }
        }
    }

    /// Removes the database: the temporary directory, or the schema.
    func destroy() async {
        switch location {
        case .sqlite(_, let directory):
            try? FileManager.default.removeItem(at: directory)
        case .postgres(var configuration):
            guard let schema = configuration.schema else { return }
            configuration.schema = nil
            guard let store = try? PostgresStore(configuration: configuration, logger: Self.logger) else { return }
            _ = try? await Self.running(store) {
                try await store.client.execute("DROP SCHEMA IF EXISTS \(unescaped: schema) CASCADE", logger: Self.logger)
            }
        }
    }

    /// Runs `body` while the store's pool runs, then stops the pool.
    private static func running<T: Sendable>(_ store: PostgresStore, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}

/// Runs `body` with a fresh database of `backend` and removes the database afterwards.
func withTestDatabase<T: Sendable>(_ backend: Backend, _ body: (TestDatabase) async throws -> T) async throws -> T {
    let database = try TestDatabase(backend)
    do {
        let result = try await body(database)
        await database.destroy()
        return result
    } catch {
        await database.destroy()
        throw error
    }
}

/// Runs `body` against a store on a fresh database of `backend` and removes the database afterwards.
func withStore<T: Sendable>(_ backend: Backend, _ body: (any LatchkeyStore) async throws -> T) async throws -> T {
    try await withTestDatabase(backend) { database in try await database.withStore(body) }
}

/// Expects `body` to throw a ``StoreError`` with `code`.
func expectStoreError<T>(
    _ code: StoreError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async {
    do {
        let value = try await body()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
    } catch let error as StoreError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected StoreError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
