import GRDB
import GRDBSQLite

/// Plain SQLite connections, outside GRDB's pool, for the store's own readers (``SQLiteAccountReader``) and its
/// checkpointer (``SQLiteCheckpointer``): opened alike, and their errors reported as GRDB's would be.
enum SQLiteRawConnection {
    /// Opens `path` with `flags` (plus `SQLITE_OPEN_NOMUTEX`: each connection is used by one thread at a time), extended
    /// result codes on and the store's busy timeout, so that it waits for another process's lock as the pool does.
    static func open(_ path: String, flags: Int32) throws(StoreError) -> OpaquePointer {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let handle else {
            let error = error(opened, handle)
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(SQLiteStore.busyTimeout * 1000))
        return handle
    }

    /// The ``StoreError`` GRDB's error for `code` maps to, with the connection's message.
    static func error(_ code: Int32, _ handle: OpaquePointer?) -> StoreError {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return StoreError(sqlite: DatabaseError(resultCode: ResultCode(rawValue: code), message: message))
    }
}
