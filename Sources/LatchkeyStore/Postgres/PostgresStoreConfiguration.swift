import PostgresNIO

extension PostgresStore {
    /// Where and how ``PostgresStore`` connects. ``StoreURL`` builds one from `postgres://user:pass@host:port/db`.
    public struct Configuration: Sendable, Hashable, CustomStringConvertible {
        /// Whether the connection is encrypted, as libpq's `sslmode`. The default is ``require`` (TLS with a verified
        /// certificate), except for a database on the loopback interface (`localhost`, `127.0.0.0/8`, `::1`), where it
        /// is ``prefer``: a password crossing a network in clear is not a default.
        public enum TLSMode: String, Sendable, Hashable, CaseIterable {
            /// Plain TCP.
            case disable
            /// TLS when the server offers it, plain TCP otherwise; the certificate is not verified (libpq's `prefer`:
            /// encryption against a passive listener, which an active one could strip anyway).
            case prefer
            /// TLS or no connection. The server's certificate and host name are verified against the system's roots,
            /// or ``rootCertificateFile`` (libpq's `verify-full`; stricter than libpq's `require`).
            case require
        }

        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        /// The schema the tables live in (created by ``PostgresStore/migrate()`` when missing); nil for the user's
        /// default `search_path` (normally `public`). Lower-case letters, digits and `_`, at most 63 characters.
        public var schema: String?
        public var tls: TLSMode
        /// A PEM file of the certificate authorities that vouch for the server (libpq's `sslrootcert`), for a database
        /// whose certificate comes from a private CA; nil trusts the system's roots.
        public var rootCertificateFile: String?
        /// The most connections the pool opens.
        public var maximumConnections: Int
        /// How many connections the pool keeps open when idle; nil (the default) for all ``maximumConnections``, a
        /// fixed-size pool. PostgresNIO arms an idle-timeout timer (three tasks and a sleep) each time a connection above
        /// the minimum goes back to the pool, and cancels it at the next lease: on the login benchmark with two
        /// instances, that and the keep-alive below were about a quarter of a login's CPU (docs/PERFORMANCE.md). A
        /// fixed pool opens its connections at start-up; a smaller minimum closes the others after 60 s idle.
        public var minimumConnections: Int?
        /// How long a connection may sit idle in the pool before it runs `SELECT 1`; nil (the default) for never.
        /// PostgresNIO arms this timer each time a connection goes back to the pool. Set it where a firewall or NAT
        /// between the server and PostgreSQL drops connections that are idle for long; a connection that PostgreSQL or
        /// the network closes is noticed and replaced either way.
        public var keepAliveInterval: Duration?
        /// How long a store call may wait — for a connection, or for the database's answer — before it fails with
        /// ``StoreError/Code/unavailable``, counted from when the call starts to run. A statement already sent is not
        /// interrupted: it finishes first, and if it succeeded its result is returned after all.
        public var operationTimeout: Duration

        public init(
            host: String,
            port: Int = 5432,
            username: String,
            password: String? = nil,
            database: String,
            schema: String? = nil,
            tls: TLSMode? = nil,
            maximumConnections: Int = 20,
            minimumConnections: Int? = nil,
            keepAliveInterval: Duration? = nil,
            operationTimeout: Duration = .seconds(10)
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.schema = schema
            self.tls = tls ?? Self.defaultTLS(host: host)
            self.maximumConnections = maximumConnections
            self.minimumConnections = minimumConnections
            self.keepAliveInterval = keepAliveInterval
            self.operationTimeout = operationTimeout
        }

        /// The TLS mode when none is given: ``TLSMode/prefer`` on the loopback interface, ``TLSMode/require`` elsewhere.
        public static func defaultTLS(host: String) -> TLSMode {
            isLoopback(host) ? .prefer : .require
        }

        /// Whether `host` names the loopback interface: `localhost`, an address in `127.0.0.0/8`, or `::1`.
        static func isLoopback(_ host: String) -> Bool {
            let host = host.lowercased()
            if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0:0:0:0:0:0:0:1" {
                return true
            }
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        }

        /// The configuration without its password, for logs.
        public var description: String {
            let credentials = password == nil ? username : "\(username):***"
            let schemaPart = schema.map { "?schema=\($0)" } ?? ""
            return "postgres://\(credentials)@\(host):\(port)/\(database)\(schemaPart) (tls: \(tls.rawValue))"
        }

        /// Throws ``StoreError/Code/invalidConfiguration`` for a schema name that is not a plain identifier, a port out
        /// of range, a pool without connections, a minimum outside 0…maximum or a keep-alive interval that is not positive.
        func validate() throws(StoreError) {
            if let schema, !Self.isPlainIdentifier(schema) {
                throw StoreError(
                    .invalidConfiguration,
                    "schema '\(schema)' must be lower-case letters, digits and _ (at most 63, not starting with a digit)"
                )
            }
            guard (1...65535).contains(port) else {
                throw StoreError(.invalidConfiguration, "port \(port) is out of range")
            }
            guard maximumConnections > 0 else {
                throw StoreError(.invalidConfiguration, "maximumConnections must be at least 1")
            }
            if let minimumConnections, !(0...maximumConnections).contains(minimumConnections) {
                throw StoreError(
                    .invalidConfiguration,
                    "minimumConnections (\(minimumConnections)) must be from 0 to maximumConnections (\(maximumConnections))"
                )
            }
            if let keepAliveInterval, keepAliveInterval <= .zero {
                throw StoreError(.invalidConfiguration, "keepAliveInterval must be positive")
            }
            guard operationTimeout > .zero else {
                throw StoreError(.invalidConfiguration, "operationTimeout must be positive")
            }
        }

        static func isPlainIdentifier(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 63, !("0"..."9").contains(first)
            else { return false }
            return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }

        var clientConfiguration: PostgresClient.Configuration {
            var verified = TLSConfiguration.makeClientConfiguration()
            if let rootCertificateFile { verified.trustRoots = .file(rootCertificateFile) }
            var opportunistic = TLSConfiguration.makeClientConfiguration()
            opportunistic.certificateVerification = .none
            let tlsConfiguration: PostgresClient.Configuration.TLS =
                switch tls {
                case .disable: .disable
                case .prefer: .prefer(opportunistic)
                case .require: .require(verified)
                }
            var configuration = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database,
                tls: tlsConfiguration
            )
            configuration.options.maximumConnections = maximumConnections
            configuration.options.minimumConnections = minimumConnections ?? maximumConnections
            configuration.options.keepAliveBehavior = keepAliveInterval.map { .init(frequency: $0) }
            // PostgreSQL itself ends a statement that runs past the operation timeout (a lock another session holds, a
            // slow plan): PostgresNIO does not cancel a statement it has sent, so without this the call would give up
            // and the statement would go on holding its connection (and its locks) for as long as it waits.
            let milliseconds =
                operationTimeout.components.seconds * 1000
                + operationTimeout.components.attoseconds / 1_000_000_000_000_000
            configuration.options.additionalStartupParameters = [("statement_timeout", "\(max(1, milliseconds))")]
            if let schema {
                // A startup parameter, so every pooled connection resolves the tables in this schema.
                configuration.options.additionalStartupParameters.append(("search_path", schema))
            }
            return configuration
        }
    }
}
