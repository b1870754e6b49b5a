import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log back into the database file on a thread of its own, while ``SQLiteStore/run()`` runs.
///
/// Without it SQLite checkpoints in the commit that takes the log past 1,000 frames, on the writer's connection: under
/// `latchkey serve` that is an event loop, which then copies about a thousand pages and waits for two `fdatasync`s
/// while its other requests (and the other loops' writes, queued behind the writer) wait. Here the writer's commit
/// only notes the log's length (SQLite's WAL hook, in place of the automatic checkpoint's); once ``threshold`` frames
/// are waiting, the checkpointer's thread copies them with a *passive* checkpoint on its own connection, which never
/// blocks the writer or a reader.
///
/// A passive checkpoint cannot catch up with a writer that keeps committing, and SQLite only rewinds the log to its
/// start when a write begins with every frame copied. So past ``backstop`` frames the writer's commit checkpoints in
/// place, as SQLite's automatic checkpoint does; by then nearly all of the log has been copied, so that checkpoint
/// copies little, and the next write rewinds the log. The log file therefore grows to about ``backstop`` frames
/// (4 KiB pages: 16 MiB) where SQLite's default kept it near 1,000.
///
/// Measured in docs/PERFORMANCE.md (twelfth round). Another process sharing the file checkpoints as it always did; two
/// checkpoints never run at once (SQLite's checkpoint lock), and a passive one that finds the lock taken does nothing.
final class SQLiteCheckpointer: Sendable {
    /// Frames waiting in the log that wake the checkpointer's thread: SQLite's default automatic checkpoint.
    let threshold: Int32
    /// The log's length in frames past which the writer's commit checkpoints in place.
    let backstop: Int32

    private let path: String
    /// The log's length after the last background checkpoint: what was copied.
    private let copiedFrames = Atomic<Int32>(0)
    /// Set by a commit that found ``threshold`` frames waiting, cleared by the thread as it starts a checkpoint, so
    /// that a burst of commits wakes it once.
    private let requested = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    /// Whether the thread runs (between ``start()`` and ``stop()``).
    private let running = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Background checkpoints run so far (for tests and the curious).
    let backgroundCheckpoints = Atomic<Int>(0)
    /// Checkpoints the writer's commits ran (or tried: the thread may hold the lock) in place, past ``backstop``.
    let writerCheckpoints = Atomic<Int>(0)

    init(path: String, threshold: Int32 = 1000, backstop: Int32 = 4000) {
        precondition(threshold > 0 && backstop > 0)
        self.path = path
        self.threshold = threshold
        self.backstop = backstop
    }

    /// Opens the checkpointer's connection and starts its thread; false, doing nothing, when it already runs.
    func start() throws(StoreError) -> Bool {
        guard
            running.withLock({ running in
                defer { running = true }
                return !running
            })
        else { return false }
        let handle: OpaquePointer
        do throws(StoreError) {
            handle = try SQLiteRawConnection.open(path, flags: SQLITE_OPEN_READWRITE)
            // A connection reads the file's header, and so learns it is in WAL mode, on its first statement; until
            // then a checkpoint reports "not in WAL mode" and does nothing.
            let read = sqlite3_exec(handle, "PRAGMA journal_mode", nil, nil, nil)
            guard read == SQLITE_OK else {
                let error = SQLiteRawConnection.error(read, handle)
                sqlite3_close_v2(handle)
                throw error
            }
        } catch {
            running.withLock { $0 = false }
            throw error
        }
        stopping.store(false, ordering: .sequentiallyConsistent)
        let connection = ThreadConnection(handle: handle)
        Thread { [self] in
            // Set on the thread itself: Linux's limit is 15 bytes, and a name given before start() is not applied.
            Thread.current.name = "sqlite-ckpt"
            runLoop(on: connection)
        }.start()
        return true
    }

    /// Stops the thread after the checkpoint under way, if any, and closes its connection.
    func stop() {
        guard running.withLock({ $0 }) else { return }
        stopping.store(true, ordering: .sequentiallyConsistent)
        wake.signal()
        finished.wait()
        running.withLock { $0 = false }
    }

    /// Makes this checkpointer the writer connection's WAL hook (replacing SQLite's automatic checkpoint). Call on the
    /// writer's queue; `self` must outlive the hook (``uninstall(from:)`` before it goes).
    func install(on writer: Database) {
        sqlite3_wal_hook(writer.sqliteConnection, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Gives the writer connection SQLite's automatic checkpoint back, at its default of 1,000 frames.
    static func uninstall(from writer: Database) {
        sqlite3_wal_autocheckpoint(writer.sqliteConnection, 1000)
    }

    /// After each commit on the writer, with the log's length in frames.
    fileprivate func committed(on writer: OpaquePointer, logFrames: Int32) {
        if logFrames >= backstop {
            writerCheckpoints.add(1, ordering: .relaxed)
            // What SQLite's own hook does; a busy checkpoint lock (the thread's checkpoint under way) is tried again
            // at the next commit.
            sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            return
        }
        var copied = copiedFrames.load(ordering: .relaxed)
        if logFrames < copied {
            // The log has been rewound since: none of it is copied.
            copiedFrames.store(0, ordering: .relaxed)
            copied = 0
        }
        if logFrames - copied >= threshold, !requested.exchange(true, ordering: .acquiringAndReleasing) {
            wake.signal()
        }
    }

    /// The thread's body: checkpoints on `connection` each time a commit asks, until ``stop()``; then closes it.
    private func runLoop(on connection: ThreadConnection) {
        let handle = connection.handle
        defer {
            sqlite3_close_v2(handle)
            finished.signal()
        }
        while true {
            wake.wait()
            if stopping.load(ordering: .sequentiallyConsistent) { return }
            requested.store(false, ordering: .releasing)
            var logFrames: Int32 = -1
            var copied: Int32 = -1
            let result = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &copied)
            // SQLITE_BUSY: another checkpoint holds the lock; the next commit past the threshold asks again.
            if result == SQLITE_OK, copied >= 0 {
                copiedFrames.store(copied, ordering: .relaxed)
                backgroundCheckpoints.add(1, ordering: .relaxed)
            }
        }
    }
}

/// The checkpointer's connection, handed to its thread, which alone uses and closes it.
private struct ThreadConnection: @unchecked Sendable {
    let handle: OpaquePointer
}

/// SQLite's WAL hook: `context` is the unretained ``SQLiteCheckpointer``.
private func walHook(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ database: UnsafePointer<CChar>?,
    _ frames: Int32
) -> Int32 {
    guard let context, let connection else { return SQLITE_OK }
    Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(on: connection, logFrames: frames)
    return SQLITE_OK
}
