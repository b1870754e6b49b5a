import Foundation
import Logging

/// Which store to open, from a URL or path as an operator writes it:
///
/// - `sqlite:///var/lib/latchkey/store.sqlite` — an absolute path
/// - `sqlite://data/store.sqlite` — a path relative to the working directory
/// - `data/store.sqlite`, `/var/lib/latchkey/store.sqlite` — a bare path (anything without `scheme://`)
/// - `sqlite:///var/lib/latchkey/store.sqlite?busy_timeout=5000` — how long, in milliseconds, a write waits for the
///   database before it fails with ``StoreError/Code/busy`` (default 2,000; ``SQLiteStore/busyTimeout``)
/// - `postgres://user:password@host:5432/database` (or `postgresql://`), with optional parameters
///   `schema=NAME`, `sslmode=disable|prefer|require` (`allow` is taken as `prefer`, `verify-ca` and
///   `verify-full` as `require`) and `sslrootcert=PATH` (a PEM file of the CAs that vouch for the server); `pool_max_conns=N` (default 20), `pool_min_conns=N` (default: the maximum, a
///   fixed-size pool) and `pool_keepalive=SECONDS` (default 0, no keep-alive queries), as
///   ``PostgresStore/Configuration`` describes them. Percent-encode special characters in the user name and password.
public enum StoreURL: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String, busyTimeout: Duration = SQLiteStore.defaultBusyTimeout)
    case postgres(PostgresStore.Configuration)

    /// Parses `string`; throws ``StoreError/Code/invalidConfiguration`` saying what is wrong.
    public init(_ string: String) throws(StoreError) {
        let text = string.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let separator = text.range(of: "://") else {
            self = .sqlite(path: try Self.sqlitePath(text))
            return
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        switch scheme {
        case "sqlite":
            let rest = String(text[separator.upperBound...])
            guard !rest.contains("#") else {
                throw StoreError(.invalidConfiguration, "a sqlite URL has no fragment: \(text)")
            }
            let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0])
            self = .sqlite(
                path: try Self.sqlitePath(path.removingPercentEncoding ?? path),
                busyTimeout: try Self.sqliteBusyTimeout(parts.count > 1 ? String(parts[1]) : nil, in: text))
        case "postgres", "postgresql":
            self = .postgres(try Self.postgresConfiguration(text))
        default:
            throw StoreError(
                .invalidConfiguration,
                "unsupported store scheme '\(scheme)': use sqlite://PATH, a file path, or postgres://USER@HOST:PORT/DATABASE"
            )
        }
    }

    /// Opens the store. A ``PostgresStore`` still needs ``LatchkeyStore/run()`` running before
    /// ``LatchkeyStore/migrate()`` and any other call.
    public func makeStore(logger: Logger = Logger(label: "latchkey.store")) throws(StoreError) -> any LatchkeyStore {
        switch self {
        case .sqlite(let path, let busyTimeout): try SQLiteStore(path: path, busyTimeout: busyTimeout)
        case .postgres(let configuration): try PostgresStore(configuration: configuration, logger: logger)
        }
    }

    /// The URL without any password, for logs.
    public var description: String {
        switch self {
        case .sqlite(let path, let busyTimeout):
            busyTimeout == SQLiteStore.defaultBusyTimeout
                ? "sqlite://\(path)"
                : "sqlite://\(path)?busy_timeout=\(busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000)"
        case .postgres(let configuration): configuration.description
        }
    }

    /// `busy_timeout=MILLISECONDS` (1 to 60,000), the one parameter a sqlite URL takes.
    private static func sqliteBusyTimeout(_ query: String?, in text: String) throws(StoreError) -> Duration {
        guard let query else { return SQLiteStore.defaultBusyTimeout }
        let pair = query.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard pair.count == 2, pair[0] == "busy_timeout", let milliseconds = Int(pair[1]),
            (1...60_000).contains(milliseconds)
        else {
            throw StoreError(
                .invalidConfiguration, "a sqlite URL takes only busy_timeout=MILLISECONDS (1 to 60000): \(text)")
        }
        return .milliseconds(milliseconds)
    }

    private static func sqlitePath(_ path: String) throws(StoreError) -> String {
        guard !path.isEmpty else { throw StoreError(.invalidConfiguration, "the SQLite store needs a file path") }
        guard path != ":memory:" else {
            throw StoreError(.invalidConfiguration, "in-memory SQLite is not supported: the store needs a file (WAL)")
        }
        return path
    }

    private static func postgresConfiguration(_ text: String) throws(StoreError) -> PostgresStore.Configuration {
        guard let components = URLComponents(string: text), let rawHost = components.host, !rawHost.isEmpty else {
            throw StoreError(
                .invalidConfiguration, "not a valid postgres URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StoreError(
                .invalidConfiguration, "the postgres URL needs a user name (postgres://USER@HOST/DATABASE)")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreError(.invalidConfiguration, "the postgres URL needs one database name as its path (…/DATABASE)")
        }
        var configuration = PostgresStore.Configuration(
            host: rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database
        )
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "schema":
                configuration.schema = value
            case "sslmode":
                configuration.tls = try tlsMode(value)
            case "sslrootcert":
                guard FileManager.default.isReadableFile(atPath: value) else {
                    throw StoreError(.invalidConfiguration, "sslrootcert '\(value)' is not a readable file")
                }
                configuration.rootCertificateFile = value
            case "pool_max_conns":
                configuration.maximumConnections = try count(value, of: item.name, atLeast: 1)
            case "pool_min_conns":
                configuration.minimumConnections = try count(value, of: item.name, atLeast: 0)
            case "pool_keepalive":
                let seconds = try count(value, of: item.name, atLeast: 0)
                configuration.keepAliveInterval = seconds == 0 ? nil : .seconds(seconds)
            default:
                throw StoreError(
                    .invalidConfiguration,
                    "unsupported postgres URL parameter '\(item.name)' (supported: schema, sslmode, sslrootcert, pool_max_conns, pool_min_conns, pool_keepalive)"
                )
            }
        }
        try configuration.validate()
        return configuration
    }

    /// A whole number from a URL parameter: decimal digits only, `atLeast` or more, at most 100,000.
    private static func count(_ value: String, of name: String, atLeast minimum: Int) throws(StoreError) -> Int {
        guard !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(value),
            (minimum...100_000).contains(number)
        else {
            throw StoreError(
                .invalidConfiguration,
                "postgres URL parameter \(name) must be a whole number from \(minimum) to 100000, not '\(value)'")
        }
        return number
    }

    private static func tlsMode(_ sslmode: String) throws(StoreError) -> PostgresStore.Configuration.TLSMode {
        switch sslmode {
        case "disable": .disable
        case "allow", "prefer": .prefer
        case "require", "verify-ca", "verify-full": .require
        default: throw StoreError(.invalidConfiguration, "unknown sslmode '\(sslmode)' (disable, prefer or require)")
        }
    }
}
