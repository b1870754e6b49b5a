import Foundation
import GRDB

/// The threads that run the store's SQLite statements, so that no caller's thread (under `latchkey serve`, an event
/// loop) ever runs one: a writer thread and a reader thread, each with a connection of its own that no other thread uses
/// (GRDB's blocking API on a `DatabaseQueue`, entered in place on the thread that owns it).
///
/// The writer commits in groups: it takes every write waiting when it wakes, runs them in one `BEGIN IMMEDIATE`
/// transaction and commits once, then answers them all; if one of them throws, the transaction rolls back and each runs
/// again in a transaction of its own. Each write is atomic and they run in the order they came, as if one after the
/// other; a write is answered only once the transaction that holds it has committed. Under load one wake-up and one
/// commit serve several callers.
///
/// Every commit is synced to disk (`synchronous = FULL`) before its writes are answered, so that an answered write
/// survives a power cut, except when every write of the group is ``Durability/unsynced`` (a passkey sign-in's commit):
/// such a group commits with `synchronous = NORMAL`, which a crash of the process cannot undo but a power cut can; the
/// next synced commit syncs it too.
///
/// One reader, not one per core: each read is a few microseconds of SQLite, less than the hop to a thread and back,
/// and on the development machine (2 cores, two event loops) a second reader thread cost more in switches than it
/// gained (docs/PERFORMANCE.md).
final class SQLiteThreads: Sendable {
    private let writes = JobQueue()
    private let reads = JobQueue()

    /// Starts a thread for `writer` and one for `reader`. A write waits at most `busyTimeout` for its turn and for
    /// another process's lock (SQLite's busy handler, set on the connection, bounds the second).
    init(writer: DatabaseQueue, reader: DatabaseQueue, busyTimeout: Duration) {
        let writes = writes
        let reads = reads
        Self.start("store-writer") {
            var synced: Bool?  // the connection's setting, once set
            while let batch = writes.take(upTo: 64) {
                Self.commit(batch, on: writer, busyTimeout: busyTimeout, synced: &synced)
            }
        }
        Self.start("store-reader") {
            while let batch = reads.take(upTo: 64) {
                Self.read(batch, on: reader)
            }
        }
    }

    deinit {
        writes.close()
        reads.close()
    }

    /// Runs `updates` on the writer thread in a write transaction and returns its value once that has committed
    /// (and, when `durability` is ``Durability/synced``, once the commit is on disk).
    func write<T: Sendable>(
        _ durability: Durability = .synced, _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await withUnsafeThrowingContinuation { continuation in
            writes.submit(Job(updates, continuation, synced: durability == .synced))
        }
    }

    /// Runs `value` on the reader thread, outside an explicit transaction.
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withUnsafeThrowingContinuation { continuation in
            reads.submit(Job(value, continuation, synced: false))
        }
    }

    /// One group commit: writes that waited past `busyTimeout` fail ``StoreError/Code/busy`` unrun; the rest share a
    /// transaction.
    private static func commit(
        _ batch: [any SQLiteJob], on writer: DatabaseQueue, busyTimeout: Duration, synced: inout Bool?
    ) {
        let now = ContinuousClock.now
        var jobs: [any SQLiteJob] = []
        jobs.reserveCapacity(batch.count)
        for job in batch {
            if now - job.queued < busyTimeout {
                jobs.append(job)
            } else {
                job.finish(StoreError(.busy, "the database stayed locked for \(busyTimeout): another process holds it"))
            }
        }
        guard !jobs.isEmpty else { return }
        let sync = jobs.contains { $0.synced }
        do {
            try writer.inDatabase { db in
                if synced != sync {
                    try db.cachedStatement(sql: sync ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
                        .execute()
                    synced = sync
                }
                var jobFailed = false
                do {
                    try db.inTransaction(.immediate) {
                        for job in jobs {
                            do {
                                try job.run(db)
                            } catch {
                                jobFailed = true
                                throw error
                            }
                        }
                        return .commit
                    }
                    for job in jobs { job.finish(nil) }
                } catch  where jobFailed && jobs.count > 1 {
                    // One of the group threw and the whole transaction rolled back: run each again in a transaction
                    // of its own, so that only the one that fails fails. (A job is its statements and their value;
                    // running it again after a rollback is running it once.)
                    for job in jobs {
                        do {
                            try db.inTransaction(.immediate) {
                                try job.run(db)
                                return .commit
                            }
                            job.finish(nil)
                        } catch {
                            job.finish(error)
                        }
                    }
                }
            }
        } catch {
            // The transaction did not begin or did not commit: nothing of the group was written.
            for job in jobs { job.finish(error) }
        }
    }

    /// Runs a batch of reads on `reader`, one after the other.
    private static func read(_ batch: [any SQLiteJob], on reader: DatabaseQueue) {
        reader.inDatabase { db in
            for job in batch {
                do {
                    try job.run(db)
                    job.finish(nil)
                } catch {
                    job.finish(error)
                }
            }
        }
    }

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        // Named from inside: on Linux only the thread itself can name itself (top -H and perf show it).
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.start()
    }
}

/// Whether an answered write must survive a power cut (``synced``, every write but two), or only a crash of the process
/// (``unsynced``: a passkey sign-in's commit of its session, counter and spent challenge, which the user makes again by
/// signing in again, and a session's advisory last-seen mark). A sign-in is the most frequent write; syncing it cost
/// 14–28 % more CPU per login (docs/PERFORMANCE.md).
enum Durability: Sendable {
    case synced
    case unsynced
}

/// A statement to run on a store thread and the caller waiting for it.
private protocol SQLiteJob: Sendable {
    /// When the caller asked.
    var queued: ContinuousClock.Instant { get }
    /// Whether the caller waits for the commit to be on disk (``Durability/synced``).
    var synced: Bool { get }
    /// Runs the caller's statements and keeps their value (on the store thread only).
    func run(_ db: Database) throws
    /// Answers the caller: the value kept by ``run(_:)``, or `failure`.
    func finish(_ failure: (any Error)?)
}

private final class Job<T: Sendable>: SQLiteJob, @unchecked Sendable {
    let queued = ContinuousClock.now
    let synced: Bool
    private let body: @Sendable (Database) throws -> T
    private let continuation: UnsafeContinuation<T, any Error>
    // Written by run and read by finish, both on the one store thread that took the job.
    private var value: T?

    init(
        _ body: @escaping @Sendable (Database) throws -> T, _ continuation: UnsafeContinuation<T, any Error>,
        synced: Bool
    ) {
        self.body = body
        self.continuation = continuation
        self.synced = synced
    }

    func run(_ db: Database) throws {
        value = try body(db)
    }

    func finish(_ failure: (any Error)?) {
        if let failure {
            continuation.resume(throwing: failure)
        } else if let value {
            continuation.resume(returning: value)
        } else {
            continuation.resume(throwing: StoreError(.databaseError, "the statement gave no value"))
        }
    }
}

/// The jobs waiting for a store thread. A closed queue refuses new jobs and lets its threads end once it is empty.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by condition.
    private var jobs: [any SQLiteJob] = []
    private var head = 0
    private var idleThreads = 0
    private var closed = false

    func submit(_ job: some SQLiteJob) {
        condition.lock()
        guard !closed else {
            condition.unlock()
            job.finish(StoreError(.unavailable, "the store is closed"))
            return
        }
        jobs.append(job)
        let wake = idleThreads > 0
        condition.unlock()
        if wake { condition.signal() }
    }

    /// Waits for jobs and takes up to `limit` of them, oldest first; nil once the queue is closed and empty.
    func take(upTo limit: Int) -> [any SQLiteJob]? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if closed { return nil }
            idleThreads += 1
            condition.wait()
            idleThreads -= 1
        }
        let end = min(jobs.count, head + limit)
        let taken = Array(jobs[head..<end])
        if end == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if end > 1024 {
            jobs.removeFirst(end)
            head = 0
        } else {
            head = end
        }
        return taken
    }

    func close() {
        condition.lock()
        closed = true
        condition.unlock()
        condition.broadcast()
    }
}
