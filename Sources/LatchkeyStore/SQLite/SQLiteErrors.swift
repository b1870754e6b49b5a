import GRDB

extension StoreError {
    /// The ``StoreError`` for anything a GRDB call threw. A ``StoreError`` thrown inside a transaction passes through.
    init(sqlite error: any Error) {
        switch error {
        case let error as StoreError:
            self = error
        case let error as DatabaseError:
            self.init(sqliteDatabaseError: error)
        case is RowDecodingError:
            self.init(.corruptRecord, "a stored row cannot be read: \(error)")
        case is CancellationError:
            self.init(.unavailable, "the database operation was cancelled")
        default:
            self.init(.databaseError, "SQLite: \(error)")
        }
    }

    private init(sqliteDatabaseError error: DatabaseError) {
        let message = error.message ?? "\(error.resultCode)"
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            self =
                UniqueValue.allCases.first { message.hasSuffix(": " + $0.sqliteColumn) }?.conflict
                ?? UniqueValue.unknownConflict
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            self = UniqueValue.missingUser
        case .SQLITE_CONSTRAINT_TRIGGER:  // a trigger's RAISE(ABORT, …): a reference the schema checks by trigger
            self.init(.notFound, message)
        case .SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL:
            self.init(.invalidRecord, "SQLite: \(message)")
        default:
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                self.init(.busy, "SQLite: the database is locked: \(message)")
            case .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_PERM:
                self.init(.unavailable, "SQLite: \(message)")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                self.init(.unavailable, "SQLite database file is damaged or not a database: \(message)")
            default:
                self.init(.databaseError, "SQLite: \(message)")
            }
        }
    }
}
