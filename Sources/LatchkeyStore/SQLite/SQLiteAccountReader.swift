import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Accounts with their credentials: the two reads every sign-in makes (an account by name for the options, by one of its
/// credentials for the verify), and the credential reads (by ID, by user), on plain read-only SQLite connections kept
/// for them. Every credential the SQLite store reads is decoded here, once.
///
/// Through GRDB's reader pool a read cost more than its query: a lease from the pool, a dispatch queue, arguments
/// boxed, and each row copied with a dictionary of its column names. Here a read takes an idle connection (or opens
/// one), steps a statement prepared once per connection, and decodes each column with GRDB's own column conversions
/// (`StatementColumnConvertible`), so values read exactly as through GRDB. In WAL mode each statement reads one
/// committed snapshot without waiting for the writer, as GRDB's readers do.
///
/// A connection is used by one caller at a time: it is taken from the idle list and given back after the read. The
/// list grows to the largest number of reads at once (on `latchkey serve`, one per event loop) and the connections
/// close with the store.
final class SQLiteAccountReader: Sendable {
    /// Which account to read.
    enum Key {
        /// By ``StoredUser/nameKey(_:)``.
        case nameKey(String)
        /// By the ID of one of its credentials.
        case credentialID(Data)
        /// By ``StoredUser/id``.
        case userID(UUID)

        /// The statement's place in a connection's cache.
        fileprivate var index: Int {
            switch self {
            case .nameKey: 0
            case .credentialID: 1
            case .userID: 2
            }
        }

        fileprivate var sql: String {
            switch self {
            case .nameKey: StoreColumns.accountByName
            case .credentialID: StoreColumns.accountByCredential
            case .userID: StoreColumns.accountByUserID
            }
        }
    }

    private let path: String
    private let idle = Mutex<[ReadConnection]>([])

    init(path: String) {
        self.path = path
    }

    /// The account with its credentials, oldest first; nil when there is none.
    func account(_ key: Key) throws(StoreError) -> StoredAccount? {
        let connection: ReadConnection
        if let idleConnection = idle.withLock({ $0.popLast() }) {
            connection = idleConnection
        } else {
            connection = try ReadConnection(path: path)
        }
        defer { idle.withLock { $0.append(connection) } }
        return try connection.account(key)
    }
}

/// One read-only connection and its prepared statements. Not shared: ``SQLiteAccountReader`` hands it to one
/// caller at a time.
private final class ReadConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Prepared on first use, by ``SQLiteAccountReader/Key``'s index.
    private var statements: [OpaquePointer?] = [nil, nil, nil]

    init(path: String) throws(StoreError) {
        handle = try SQLiteRawConnection.open(path, flags: SQLITE_OPEN_READONLY)
    }

    deinit {
        for statement in statements { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func account(_ key: SQLiteAccountReader.Key) throws(StoreError) -> StoredAccount? {
        let statement = try prepared(key)
        let bound =
            switch key {
            case .nameKey(let nameKey): sqlite3_bind_text(statement, 1, nameKey, -1, SQLITE_TRANSIENT)
            case .credentialID(let id): id.withUnsafeBytes { Self.bindBlob($0, to: statement) }
            // GRDB's form of a UUID.
            case .userID(let id): withUnsafeBytes(of: id.uuid) { Self.bindBlob($0, to: statement) }
            }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        guard bound == SQLITE_OK else { throw SQLiteRawConnection.error(bound, handle) }
        var user: StoredUser?
        var credentials: [StoredCredential] = []
        while true {
            let stepped = sqlite3_step(statement)
            guard stepped == SQLITE_ROW else {
                guard stepped == SQLITE_DONE else { throw SQLiteRawConnection.error(stepped, handle) }
                break
            }
            if user == nil {
                user = try StoredUser(sqliteStatement: statement, at: Int32(StoreColumns.credentialCount))
            }
            // An account without credentials is one row of NULL credential columns.
            if sqlite3_column_type(statement, 0) != SQLITE_NULL {
                credentials.append(try StoredCredential(sqliteStatement: statement))
            }
        }
        return user.map { StoredAccount(user: $0, credentials: credentials) }
    }

    private func prepared(_ key: SQLiteAccountReader.Key) throws(StoreError) -> OpaquePointer {
        if let statement = statements[key.index] { return statement }
        var made: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, key.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &made, nil)
        guard result == SQLITE_OK, let made else { throw SQLiteRawConnection.error(result, handle) }
        statements[key.index] = made
        return made
    }

    /// Binds `bytes` as a blob (a zero-length blob needs a non-null pointer to bind as a blob, not as NULL).
    private static func bindBlob(_ bytes: UnsafeRawBufferPointer, to statement: OpaquePointer) -> Int32 {
        sqlite3_bind_blob(
            statement, 1, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), SQLITE_TRANSIENT)
    }
}

/// SQLite copies what is bound with this destructor.
private let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// A column of the current row, through GRDB's conversion; ``StoreError/Code/corruptRecord`` when it is NULL or of
/// a type the conversion refuses.
private func column<Value: StatementColumnConvertible>(
    _ statement: OpaquePointer, _ index: Int32, as type: Value.Type = Value.self
) throws(StoreError) -> Value {
    guard let value = Value(sqliteStatement: statement, index: index) else {
        throw StoreError(.corruptRecord, "a stored row cannot be read: column \(index) is not a \(Value.self)")
    }
    return value
}

/// A column that may be NULL.
private func optionalColumn<Value: StatementColumnConvertible>(
    _ statement: OpaquePointer, _ index: Int32, as type: Value.Type = Value.self
) throws(StoreError) -> Value? {
    sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : try column(statement, index, as: Value.self)
}

extension StoredUser {
    /// The user in the current row's columns from `start` on, in ``StoreColumns/user`` order.
    fileprivate init(sqliteStatement statement: OpaquePointer, at start: Int32) throws(StoreError) {
        self.init(
            id: try column(statement, start),
            userHandle: try column(statement, start + 1),
            name: try column(statement, start + 2),
            displayName: try column(statement, start + 3),
            createdAt: try column(statement, start + 4, as: SQLiteDate.self).date
        )
    }
}

extension StoredCredential {
    /// The credential in the current row's first columns, in ``StoreColumns/credential`` order.
    fileprivate init(sqliteStatement statement: OpaquePointer) throws(StoreError) {
        self.init(
            id: try column(statement, 0),
            userID: try column(statement, 1),
            publicKey: try column(statement, 2),
            algorithm: try StoredValues.algorithm(column(statement, 3)),
            signCount: try StoredValues.signCount(column(statement, 4)),
            aaguid: try column(statement, 5),
            transports: try SQLiteTransports.decode(column(statement, 6)),
            backupEligible: try column(statement, 7),
            backedUp: try column(statement, 8),
            attestationFormat: try column(statement, 9),
            userVerified: try column(statement, 10),
            discoverable: try optionalColumn(statement, 11),
            label: try optionalColumn(statement, 12),
            createdAt: try column(statement, 13, as: SQLiteDate.self).date,
            lastUsedAt: try optionalColumn(statement, 14, as: SQLiteDate.self)?.date
        )
    }
}
