import CSQLiteLogWrites
import Foundation
import GRDBSQLite
import Synchronization
import Testing

@testable import LatchkeyStore

/// ``SQLiteStore/installLogWriteBatching()``: a commit's log frames go to the file in one `pwritev`, before the commit
/// is visible, and the log is the one SQLite would have written.
@Suite("SQLite's write-ahead log: a commit's frames in one write")
struct SQLiteLogWriteTests {
    /// A raw connection in WAL mode on a fresh file, through the process's default VFS.
    private final class Connection {
        let handle: OpaquePointer

        init(_ path: String) throws {
            var handle: OpaquePointer?
            try #require(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK)
            self.handle = try #require(handle)
            try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        }

        deinit { sqlite3_close_v2(handle) }

        func execute(_ sql: String) throws {
            var message: UnsafeMutablePointer<CChar>?
            let result = sqlite3_exec(handle, sql, nil, nil, &message)
            defer { sqlite3_free(message) }
            try #require(result == SQLITE_OK, "\(sql): \(message.map { String(cString: $0) } ?? "result \(result)")")
        }

        func integer(_ sql: String) throws -> Int64 {
            var statement: OpaquePointer?
            try #require(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK)
            defer { sqlite3_finalize(statement) }
            try #require(sqlite3_step(statement) == SQLITE_ROW)
            return sqlite3_column_int64(statement, 0)
        }

        func text(_ sql: String) throws -> String {
            var statement: OpaquePointer?
            try #require(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK)
            defer { sqlite3_finalize(statement) }
            try #require(sqlite3_step(statement) == SQLITE_ROW)
            return String(cString: try #require(sqlite3_column_text(statement, 0)))
        }

        /// The log file's `pwritev` calls and frames so far.
        func logWrites() throws -> (calls: Int64, frames: Int64) {
            var calls: Int64 = 0
            var frames: Int64 = 0
            try #require(latchkey_sqlite_log_write_counts(handle, &calls, &frames) == 1, "the log is not written through the batching VFS")
            return (calls, frames)
        }
    }

    private static let frameSize: Int64 = 4096 + 24

    private func withDatabase(_ body: (String) throws -> Void) throws {
        #expect(SQLiteStore.installLogWriteBatching())
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-log-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try body(path)
    }

    private func logFrames(_ path: String) throws -> Int64 {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int64)
        return size <= 32 ? 0 : (size - 32) / Self.frameSize
    }

    @Test("installed, it is the process's default VFS, and installing it again changes nothing")
    func installedAsTheDefault() throws {
        #expect(SQLiteStore.installLogWriteBatching())
        #expect(SQLiteStore.installLogWriteBatching())
        let vfs = try #require(sqlite3_vfs_find(nil))
        #expect(String(cString: vfs.pointee.zName) == "latchkey-log-batching")
    }

    @Test("a commit that changes several pages is one write of all its frames")
    func oneWritePerCommit() throws {
        try withDatabase { path in
            let writer = try Connection(path)
            try writer.execute("""
                PRAGMA page_size = 4096;
                CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b BLOB);
                CREATE INDEX t_a ON t(a);
                CREATE TABLE u (id INTEGER PRIMARY KEY, c TEXT)
                """)
            for round in 0..<5 {
                let before = try writer.logWrites()
                let framesBefore = try logFrames(path)
                try writer.execute("""
                    BEGIN IMMEDIATE;
                    INSERT INTO t (a, b) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 40) SELECT hex(randomblob(16)), randomblob(300) FROM s;
                    INSERT INTO u (c) VALUES ('round \(round)');
                    COMMIT
                    """)
                let after = try writer.logWrites()
                let framesWritten = try logFrames(path) - framesBefore
                #expect(framesWritten >= 3, "a commit that changes a table, an index and another table")
                #expect(after.calls - before.calls == 1)
                #expect(after.frames - before.frames == framesWritten)
            }
        }
    }

    @Test("another connection sees each commit as soon as it returns")
    func commitsAreVisibleAtOnce() throws {
        try withDatabase { path in
            let writer = try Connection(path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t(v)")
            let reader = try Connection(path)
            for count in 1...50 {
                try writer.execute("INSERT INTO t (v) VALUES (hex(randomblob(8)))")
                #expect(try reader.integer("SELECT count(*) FROM t") == Int64(count))
                #expect(try reader.integer("SELECT count(*) FROM t INDEXED BY t_v WHERE v > ''") == Int64(count))
            }
        }
    }

    @Test("a transaction larger than the cache spills to the log, reads its own frames back and commits whole")
    func spilledTransaction() throws {
        try withDatabase { path in
            let writer = try Connection(path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB); PRAGMA cache_size = 10")
            let reader = try Connection(path)
            let before = try writer.logWrites()
            try writer.execute("BEGIN IMMEDIATE; INSERT INTO t (b) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000) SELECT randomblob(600) FROM s")
            // Pages spilled before the commit are read back from the log by this connection.
            #expect(try writer.integer("SELECT sum(length(b)) FROM t") == 1_200_000)
            #expect(try reader.integer("SELECT count(*) FROM t") == 0)
            try writer.execute("COMMIT")
            // Frames rewritten in place (a spilled page changed again) are not counted as new ones, and their headers are
            // rewritten at the commit: the counts are not the log's growth here, only more than one write.
            #expect(try writer.logWrites().calls - before.calls > 1, "spilled frames and more than 64 frames are written in parts")
            #expect(try reader.integer("SELECT count(*) FROM t") == 2000)
            #expect(try reader.text("PRAGMA integrity_check") == "ok")
        }
    }

    @Test("a rolled-back transaction leaves only what was committed")
    func rollback() throws {
        try withDatabase { path in
            let writer = try Connection(path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB); PRAGMA cache_size = 10")
            try writer.execute("INSERT INTO t (b) VALUES (x'01')")
            try writer.execute("BEGIN IMMEDIATE; INSERT INTO t (b) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 500) SELECT randomblob(600) FROM s; ROLLBACK")
            try writer.execute("INSERT INTO t (b) VALUES (x'02')")
            let reader = try Connection(path)
            #expect(try reader.integer("SELECT count(*) FROM t") == 2)
            #expect(try reader.text("PRAGMA integrity_check") == "ok")
        }
    }

    @Test("the log on disk is one SQLite recovers: a copy taken while it is in use opens with every commit")
    func recoverableLog() throws {
        try withDatabase { path in
            let writer = try Connection(path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t(v)")
            for _ in 0..<30 {
                try writer.execute("INSERT INTO t (v) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20) SELECT hex(randomblob(40)) FROM s")
            }
            #expect(try logFrames(path) > 30, "the commits are still in the log")
            let copy = path + "-copy"
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
            }
            // The database file and its log, not the shared-memory index: the copy's first connection rebuilds the
            // index from the log's frames, checking each frame's checksum and salt.
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
            let recovered = try Connection(copy)
            #expect(try recovered.integer("SELECT count(*) FROM t") == 600)
            #expect(try recovered.text("PRAGMA integrity_check") == "ok")
        }
    }

    @Test("with a writer, two readers and a checkpoint running at once on their own threads, no reader sees part of a commit")
    func concurrentReadersNeverSeePartOfACommit() throws {
        try withDatabase { path in
            let setup = try Connection(path)
            try setup.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, v BLOB); CREATE INDEX t_batch ON t(batch)")
            let commits = 400
            let rowsPerCommit = 5
            let writing = Atomic<Bool>(true)
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { role in
                var handle: OpaquePointer?
                guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
                    failures.withLock { $0.append("role \(role): cannot open") }
                    return
                }
                defer { sqlite3_close_v2(handle) }
                sqlite3_busy_timeout(handle, 5_000)
                switch role {
                case 0:
                    // The writer: each commit adds one batch of rows and a blob that spans pages.
                    for batch in 1...commits {
                        let sql = "INSERT INTO t (batch, v) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < \(rowsPerCommit)) SELECT \(batch), randomblob(900) FROM s"
                        if sqlite3_exec(handle, sql, nil, nil, nil) != SQLITE_OK {
                            failures.withLock { $0.append("commit \(batch): \(String(cString: sqlite3_errmsg(handle)))") }
                        }
                    }
                    writing.store(false, ordering: .releasing)
                case 3:
                    // A passive checkpoint over and over, as the store's checkpointer runs one.
                    while writing.load(ordering: .acquiring) {
                        sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                    }
                default:
                    // A reader: in one snapshot, every batch it sees is whole, through the table and the index alike.
                    while writing.load(ordering: .acquiring) {
                        let sql = "SELECT count(*), count(DISTINCT batch), coalesce(max(batch), 0), (SELECT count(*) FROM t INDEXED BY t_batch WHERE batch > 0) FROM t"
                        var statement: OpaquePointer?
                        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
                            failures.withLock { $0.append("reader \(role): \(String(cString: sqlite3_errmsg(handle)))") }
                            return
                        }
                        defer { sqlite3_finalize(statement) }
                        guard sqlite3_step(statement) == SQLITE_ROW else {
                            failures.withLock { $0.append("reader \(role): \(String(cString: sqlite3_errmsg(handle)))") }
                            return
                        }
                        let rows = sqlite3_column_int64(statement, 0), batches = sqlite3_column_int64(statement, 1)
                        let last = sqlite3_column_int64(statement, 2), indexed = sqlite3_column_int64(statement, 3)
                        if rows != batches * Int64(rowsPerCommit) || batches != last || indexed != rows {
                            failures.withLock { $0.append("reader \(role) saw \(rows) rows in \(batches) batches up to \(last), \(indexed) by the index") }
                        }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let reader = try Connection(path)
            #expect(try reader.integer("SELECT count(*) FROM t") == Int64(commits * rowsPerCommit))
            #expect(try reader.text("PRAGMA integrity_check") == "ok")
        }
    }

    @Test("a commit whose frames cannot be written fails, leaves nothing of itself, and the next commit succeeds")
    func failedWriteChangesNothing() async {
        // A child process of its own: it lowers its own limit on file size (RLIMIT_FSIZE), so that writing the log
        // fails (EFBIG) part of the way through a commit's frames.
        await #expect(processExitsWith: .exitCode(0)) {
            exit(SQLiteLogWriteTests.failedWriteScenario())
        }
    }

    /// 0 when a commit that the file-size limit cuts short fails and changes nothing, and the next one succeeds; the
    /// step that went wrong otherwise.
    static func failedWriteScenario() -> Int32 {
        signal(SIGXFSZ, SIG_IGN)  // a write past the limit then fails with EFBIG instead of ending the process
        guard SQLiteStore.installLogWriteBatching() else { return 1 }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-log-limit-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle else { return 2 }
        defer { sqlite3_close_v2(handle) }
        func run(_ sql: String) -> Int32 { sqlite3_exec(handle, sql, nil, nil, nil) }
        func count() -> Int64 {
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(handle, "SELECT count(*) FROM t", -1, &statement, nil) == SQLITE_OK,
                  sqlite3_step(statement) == SQLITE_ROW else { return -1 }
            return sqlite3_column_int64(statement, 0)
        }
        guard run("PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB); INSERT INTO t (v) VALUES (x'01')") == SQLITE_OK
        else { return 3 }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int else { return 4 }
        #if canImport(Glibc)
        let fileSize = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
        let fileSize = RLIMIT_FSIZE
        #endif
        var limit = rlimit()
        getrlimit(fileSize, &limit)
        let unlimited = limit.rlim_cur
        // Room for about two more frames: the commit below needs about twenty.
        limit.rlim_cur = rlim_t(size + 9_000)
        guard setrlimit(fileSize, &limit) == 0 else { return 5 }
        let cutShort = run("INSERT INTO t (v) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 80) SELECT randomblob(900) FROM s")
        limit.rlim_cur = unlimited
        guard setrlimit(fileSize, &limit) == 0 else { return 6 }
        guard cutShort != SQLITE_OK else { return 7 }
        guard count() == 1 else { return 8 }
        guard run("INSERT INTO t (v) VALUES (x'02')") == SQLITE_OK, count() == 2 else { return 9 }
        // Another connection reads the file and its log as they are: the two commits, and a sound database.
        var other: OpaquePointer?
        guard sqlite3_open_v2(path, &other, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let other else { return 10 }
        defer { sqlite3_close_v2(other) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(other, "SELECT (SELECT count(*) FROM t), (SELECT integrity_check FROM pragma_integrity_check)", -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW,
              sqlite3_column_int64(statement, 0) == 2,
              let check = sqlite3_column_text(statement, 1), String(cString: check) == "ok"
        else { return 11 }
        return 0
    }
}
