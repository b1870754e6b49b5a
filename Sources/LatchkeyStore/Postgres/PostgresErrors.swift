import PostgresNIO

extension StoreError {
    /// The ``StoreError`` for anything a PostgresNIO call threw. A ``StoreError`` thrown inside a transaction passes
    /// through. Messages carry the server's message, never the query's bound values.
    init(postgres error: any Error) {
        switch error {
        case let error as StoreError:
            self = error
        case let error as PostgresTransactionError:
            if let cause = error.closureError ?? error.beginError ?? error.commitError {
                self.init(postgres: cause)
            } else {
                self.init(.databaseError, "PostgreSQL transaction failed")
            }
        case let error as PSQLError:
            self.init(psql: error)
        case is PostgresDecodingError:
            self.init(.corruptRecord, "a stored row cannot be read")
        case is CancellationError:
            self.init(.unavailable, "the database operation was cancelled")
        default:
            self.init(.databaseError, "PostgreSQL: \(error)")
        }
    }

    private static let connectionFailures: Set<PSQLError.Code> = [
        .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
        .sslUnsupported, .failedToAddSSLHandler, .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError,
        .queryCancelled,
    ]

    private init(psql error: PSQLError) {
        guard let info = error.serverInfo, let state = info[.sqlState] else {
            if Self.connectionFailures.contains(error.code) {
                self.init(.unavailable, "PostgreSQL connection failed: \(error.code)")
            } else {
                self.init(.databaseError, "PostgreSQL client error: \(error.code)")
            }
            return
        }
        let message = "PostgreSQL: \(info[.message] ?? state) (\(state))"
        switch state {
        case "23505":  // unique_violation
            let constraint = info[.constraintName]
            self =
                UniqueValue.allCases.first { $0.postgresConstraint == constraint }?.conflict
                ?? UniqueValue.unknownConflict
        case "23503":  // foreign_key_violation
            self = UniqueValue.missingUser
        case "23502", "23514", "22001", "22003":  // not null, check, string too long, number out of range
            self.init(.invalidRecord, message)
        // Serialization, deadlock, lock timeout, no database, no schema.
        case "40001", "40P01", "55P03", "3D000", "3F000":
            self.init(.unavailable, message)
        case _ where ["08", "28", "53", "57"].contains(String(state.prefix(2))):
            // connection, authorisation, resources, operator intervention (shutdown, cancelled statement)
            self.init(.unavailable, message)
        default:
            self.init(.databaseError, message)
        }
    }
}
