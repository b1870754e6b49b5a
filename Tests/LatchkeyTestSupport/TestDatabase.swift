import Foundation
import GRDB
import LatchkeyStore
import Logging
import PostgresNIO

/// The databases the server and client-server suites run against.
public enum Backend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite
    case postgres

    /// The PostgreSQL server to test against (scripts/test.sh starts one with scripts/postgres.sh); nil skips
    /// the PostgreSQL cases.
    public static let postgresURL: String? = {
        guard let url = ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES_URL"], !url.isEmpty else {
            return nil
        }
        return url
    }()

    public static let skipMessage =
        "LATCHKEY_TEST_POSTGRES_URL is unset: the PostgreSQL cases are skipped (scripts/test.sh sets it; or run scripts/postgres.sh start DIR PORT)"

    /// SQLite always; PostgreSQL when a server is given.
    public static var available: [Backend] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// The name Swift Testing shows for a parameterised case.
    public var description: String { rawValue }
}

/// A fresh, empty database for one test: a SQLite file in its own directory, or a PostgreSQL schema of its own.
/// Several stores (server instances) can open it at once.
public struct TestDatabase: Sendable {
    public let backend: Backend
    private let sqlitePath: String
    private let directory: URL
    private let postgres: PostgresStore.Configuration?

    /// The tests' logger: errors only.
    public static let logger: Logger = {
        var logger = Logger(label: "latchkey.server.test")
        logger.logLevel = .error
        return logger
    }()

    public init(_ backend: Backend) throws {
        self.backend = backend
        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-server-\(suffix)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        sqlitePath = directory.appendingPathComponent("store.sqlite").path
        switch backend {
        case .sqlite:
            postgres = nil
        case .postgres:
            guard let url = Backend.postgresURL, case .postgres(var configuration) = try StoreURL(url) else {
                throw StoreError(
                    .invalidConfiguration, "LATCHKEY_TEST_POSTGRES_URL is not a postgres:// URL. \(Backend.skipMessage)"
                )
            }
            configuration.schema = "lk_server_\(suffix)"
            configuration.maximumConnections = 8
            // Connections on demand: the parallel run makes a hundred stores, and a fixed pool would open all of their
            // connections at once, past PostgreSQL's max_connections.
            configuration.minimumConnections = 0
            // The parallel run starts a hundred PostgreSQL-backed tests at once on two cores; a call there can wait for
            // a new connection longer than a server would. (PostgresUnavailableTests checks the limit itself.)
            configuration.operationTimeout = .seconds(60)
            postgres = configuration
        }
    }

    /// The database as `--database` takes it: the SQLite file's URL, or the PostgreSQL URL with this test's schema.
    public var url: String {
        guard let schema = postgres?.schema, let base = Backend.postgresURL else { return "sqlite://" + sqlitePath }
        return base + (base.contains("?") ? "&" : "?") + "schema=" + schema
    }

    /// How this database's PostgreSQL stores connect (nil on SQLite), for a test that needs a store of its own shape.
    public var postgresConfiguration: PostgresStore.Configuration? { postgres }

    /// A new store on this database (not yet running or migrated: the server does both).
    public func makeStore() throws -> any LatchkeyStore {
        if let postgres {
            return try PostgresStore(configuration: postgres, logger: Self.logger)
        }
        return try SQLiteStore(path: sqlitePath)
    }

    /// A connection of its own to the SQLite file at `path`, beside a store's (as another process would have). It waits
    /// up to 10 s for the store's write lock or a checkpoint, instead of failing at once with "database is locked".
    public static func sideConnection(to path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Runs one SQL statement on the database behind the API's back, to make a state no request can (a passkey whose
    /// stored flag differs from what its authenticator now says). `sql` gets the prefix that names a table: empty on
    /// SQLite, the test's schema and a dot on PostgreSQL.
    public func execute(_ sql: (_ tablePrefix: String) -> String) async throws {
        guard let configuration = postgres, let schema = configuration.schema else {
            let queue = try Self.sideConnection(to: sqlitePath)
            let statement = sql("")
            try await queue.write { db in try db.execute(sql: statement) }
            return
        }
        let statement = sql(schema + ".")
        try await withPostgres(configuration) { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: Self.logger)
        }
    }

    /// Makes every email code (verification or recovery) expired, in the database itself, so a test need not wait the
    /// ten minutes out.
    public func expireEmailCodes() async throws {
        try await execute {
            "UPDATE \($0)emails SET code_expires_at = '2000-01-01 00:00:00.000' WHERE code_hash IS NOT NULL"
        }
    }

    /// Makes every session's last proof of the user `seconds` old, in the database itself (as the re-authentication
    /// window passing would), so a test need not wait the window out.
    public func ageSessionVerifications(by seconds: Int = 3600) async throws {
        guard let configuration = postgres, let schema = configuration.schema else {
            let queue = try Self.sideConnection(to: sqlitePath)
            try await queue.write { db in
                try db.execute(
                    sql: "UPDATE sessions SET verified_at = strftime('%Y-%m-%d %H:%M:%f', 'now', ?)",
                    arguments: ["-\(seconds) seconds"])
            }
            return
        }
        try await withPostgres(configuration) { client in
            _ = try await client.query(
                PostgresQuery(
                    unsafeSQL: "UPDATE \(schema).sessions SET verified_at = now() - interval '\(seconds) seconds'"),
                logger: Self.logger)
        }
    }

    /// Runs `body` with a client of the test cluster, which listens on loopback without TLS.
    private func withPostgres(
        _ configuration: PostgresStore.Configuration, _ body: @Sendable (PostgresClient) async throws -> Void
    ) async throws {
        let client = PostgresClient(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable
            ),
            backgroundLogger: Self.logger
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }

    /// Removes the database.
    public func destroy() async {
        try? FileManager.default.removeItem(at: directory)
        guard let configuration = postgres, let schema = configuration.schema else { return }
        // `schema` is a generated plain identifier.
        try? await withPostgres(configuration) { client in
            _ = try? await client.query(
                PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: Self.logger)
        }
    }
}

extension TestDatabase {
    /// Runs `body` with a fresh database of `backend` and removes the database afterwards, whether `body` returned or
    /// threw, except after a ``ServerStartFailure``: a server that did not start may still hold it, so it stays.
    public static func with<T: Sendable>(_ backend: Backend, _ body: (TestDatabase) async throws -> T) async throws -> T
    {
        let database = try TestDatabase(backend)
        do {
            let result = try await body(database)
            await database.destroy()
            return result
        } catch let failure as ServerStartFailure {
            throw failure
        } catch {
            await database.destroy()
            throw error
        }
    }
}
