import GRDBSQLite
import Testing

/// Reads a database's write-ahead log from a connection of the test's own.
enum WALFrames {
    /// The log's length in frames. The passive checkpoint that reads it copies what it can but never rewinds the log;
    /// `SQLITE_CHECKPOINT_TRUNCATE` copies everything and empties the log (0), when no other connection is using it.
    /// Tried again while another checkpoint holds SQLite's checkpoint lock.
    static func count(at path: String, mode: Int32 = SQLITE_CHECKPOINT_PASSIVE) async throws -> Int32 {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        try #require(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        try #require(sqlite3_exec(handle, "PRAGMA journal_mode", nil, nil, nil) == SQLITE_OK)
        for _ in 0..<500 {
            var frames: Int32 = -1
            var copied: Int32 = -1
            let result = sqlite3_wal_checkpoint_v2(handle, nil, mode, &frames, &copied)
            if result == SQLITE_OK { return frames }
            try #require(result == SQLITE_BUSY, "checkpoint result \(result)")
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }
}
