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
    /// A SQLite call that did not succeed: the statement and SQLite's message.
    struct CallFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// A raw connection through the process's default VFS, in WAL mode unless read-only. It throws ``CallFailed``
    /// rather than recording issues, so that threads of its own and a child process can use it too.
    final class Connection {
        let handle: OpaquePointer

        init(_ path: String, readOnly: Bool = false) throws {
            var handle: OpaquePointer?
            let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
                sqlite3_close_v2(handle)
                throw CallFailed(description: "cannot open \(path)")
            }
            self.handle = handle
            sqlite3_busy_timeout(handle, 5_000)
            if !readOnly { try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL") }
        }

        deinit { sqlite3_close_v2(handle) }

        func execute(_ sql: String) throws {
            var message: UnsafeMutablePointer<CChar>?
            let result = sqlite3_exec(handle, sql, nil, nil, &message)
            defer { sqlite3_free(message) }
            guard result == SQLITE_OK else {
                throw CallFailed(description: "\(sql): \(message.map { String(cString: $0) } ?? "result \(result)")")
            }
        }

        /// The first row of `sql`'s answer, as integers.
        func integers(_ sql: String) throws -> [Int64] {
            try firstRow(sql) { statement in
                (0..<sqlite3_column_count(statement)).map { sqlite3_column_int64(statement, $0) }
            }
        }

        func integer(_ sql: String) throws -> Int64 {
            try integers(sql)[0]
        }

        func text(_ sql: String) throws -> String {
            try firstRow(sql) { statement in sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "" }
        }

        private func firstRow<T>(_ sql: String, _ read: (OpaquePointer) -> T) throws -> T {
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement,
                sqlite3_step(statement) == SQLITE_ROW
            else { throw CallFailed(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
            return read(statement)
        }

        /// The log file's `pwritev` calls and frames so far.
        func logWrites() throws -> (calls: Int64, frames: Int64) {
            var calls: Int64 = 0
            var frames: Int64 = 0
            guard latchkey_sqlite_log_write_counts(handle, &calls, &frames) == 1 else {
                throw CallFailed(description: "the log is not written through the batching VFS")
            }
            return (calls, frames)
        }
    }

    /// `SELECT select FROM` a series of `count` rows (`i` from 1), for inserting many rows in one statement.
    static func series(_ count: Int, _ select: String) -> String {
        "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < \(count)) SELECT \(select) FROM s"
    }

    /// A path for a new database file, and the removal of it and its log and index.
    static func temporaryDatabase(_ name: String) -> (path: String, remove: () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-\(name)-\(UUID().uuidString).sqlite"
        ).path
        return (
            path, { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        )
    }

    private static let frameSize: Int64 = 4096 + 24

    private func withDatabase(_ body: (String) throws -> Void) throws {
        #expect(SQLiteStore.installLogWriteBatching())
        let (path, remove) = Self.temporaryDatabase("log")
        defer { remove() }
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
            try writer.execute(
                """
                PRAGMA page_size = 4096;
                CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b BLOB);
                CREATE INDEX t_a ON t(a);
                CREATE TABLE u (id INTEGER PRIMARY KEY, c TEXT)
                """)
            for round in 0..<5 {
                let before = try writer.logWrites()
                let framesBefore = try logFrames(path)
                try writer.execute(
                    """
                    BEGIN IMMEDIATE;
                    INSERT INTO t (a, b) \(Self.series(40, "hex(randomblob(16)), randomblob(300)"));
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

    @Test("a commit of more frames than are held at once is written 64 frames at a time, all before it returns")
    func largeCommitInParts() throws {
        try withDatabase { path in
            let writer = try Connection(path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)")
            let before = try writer.logWrites()
            let framesBefore = try logFrames(path)
            // About 150 pages, well within the default cache: nothing spills, one commit writes them all.
            try writer.execute("INSERT INTO t (b) \(Self.series(600, "randomblob(900)"))")
            let after = try writer.logWrites()
            let framesWritten = try logFrames(path) - framesBefore
            #expect(framesWritten > 128)
            #expect(after.frames - before.frames == framesWritten)
            #expect(after.calls - before.calls == (framesWritten + 63) / 64)
            #expect(try Connection(path).integer("SELECT count(*) FROM t") == 600)
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
            try writer.execute("BEGIN IMMEDIATE; INSERT INTO t (b) \(Self.series(2000, "randomblob(600)"))")
            // Pages spilled before the commit are read back from the log by this connection.
            #expect(try writer.integer("SELECT sum(length(b)) FROM t") == 1_200_000)
            #expect(try reader.integer("SELECT count(*) FROM t") == 0)
            try writer.execute("COMMIT")
            // Frames rewritten in place (a spilled page changed again) are not counted as new ones, and their headers are
            // rewritten at the commit: the counts are not the log's growth here, only more than one write.
            #expect(
                try writer.logWrites().calls - before.calls > 1,
                "spilled frames and more than 64 frames are written in parts")
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
            try writer.execute("BEGIN IMMEDIATE; INSERT INTO t (b) \(Self.series(500, "randomblob(600)")); ROLLBACK")
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
                try writer.execute("INSERT INTO t (v) \(Self.series(20, "hex(randomblob(40))"))")
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

    @Test(
        "with a writer, two readers and a checkpoint running at once on their own threads, no reader sees part of a commit"
    )
    func concurrentReadersNeverSeePartOfACommit() throws {
        try withDatabase { path in
            let setup = try Connection(path)
            try setup.execute(
                "CREATE TABLE t (id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, v BLOB); CREATE INDEX t_batch ON t(batch)"
            )
            let commits = 400
            let rowsPerCommit = 5
            let writing = Atomic<Bool>(true)
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { role in
                do {
                    let connection = try Connection(path)
                    switch role {
                    case 0:
                        // The writer: each commit adds one batch of rows, each with a blob of most of a page.
                        defer { writing.store(false, ordering: .releasing) }
                        for batch in 1...commits {
                            try connection.execute(
                                "INSERT INTO t (batch, v) \(Self.series(rowsPerCommit, "\(batch), randomblob(900)"))")
                        }
                    case 3:
                        // A passive checkpoint over and over, as the store's checkpointer runs one.
                        while writing.load(ordering: .acquiring) {
                            sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                        }
                    default:
                        // A reader: in one snapshot, every batch it sees is whole, through the table and the index alike.
                        while writing.load(ordering: .acquiring) {
                            let seen = try connection.integers(
                                """
                                SELECT count(*), count(DISTINCT batch), coalesce(max(batch), 0),
                                       (SELECT count(*) FROM t INDEXED BY t_batch WHERE batch > 0) FROM t
                                """)
                            let (rows, batches, last, indexed) = (seen[0], seen[1], seen[2], seen[3])
                            if rows != batches * Int64(rowsPerCommit) || batches != last || indexed != rows {
                                failures.withLock {
                                    $0.append(
                                        "reader \(role) saw \(rows) rows in \(batches) batches up to \(last), \(indexed) by the index"
                                    )
                                }
                            }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("role \(role): \(error)") }
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
        let (path, remove) = temporaryDatabase("log-limit")
        defer { remove() }
        #if canImport(Glibc)
        let fileSize = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
        let fileSize = RLIMIT_FSIZE
        #endif
        do {
            let writer = try Connection(path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB); INSERT INTO t (v) VALUES (x'01')")
            guard let size = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int else {
                return 2
            }
            var limit = rlimit()
            getrlimit(fileSize, &limit)
            let unlimited = limit.rlim_cur
            // Room for about two more frames: the commit below needs about twenty.
            limit.rlim_cur = rlim_t(size + 9_000)
            guard setrlimit(fileSize, &limit) == 0 else { return 3 }
            let cutShort = Result { try writer.execute("INSERT INTO t (v) \(series(80, "randomblob(900)"))") }
            limit.rlim_cur = unlimited
            guard setrlimit(fileSize, &limit) == 0 else { return 4 }
            guard case .failure = cutShort else { return 5 }
            guard try writer.integer("SELECT count(*) FROM t") == 1 else { return 6 }
            try writer.execute("INSERT INTO t (v) VALUES (x'02')")
            // Another connection reads the file and its log as they are: the two commits, and a sound database.
            let other = try Connection(path, readOnly: true)
            guard try other.integer("SELECT count(*) FROM t") == 2, try other.text("PRAGMA integrity_check") == "ok"
            else { return 7 }
            return 0
        } catch {
            return 8
        }
    }
}
