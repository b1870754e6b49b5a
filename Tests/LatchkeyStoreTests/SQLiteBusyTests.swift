import Foundation
import GRDB
import LatchkeyTestSupport
import Testing

@testable import LatchkeyStore

/// A write waits a bounded time for another connection's lock, and behind writes held up by it, then fails with
/// `store.busy` having changed nothing; once the lock is released, writes go through.
@Suite("SQLite: a locked database answers busy after a bounded wait")
struct SQLiteBusyTests {
    let scratch = ScratchDirectory(prefix: "latchkey-busy")

    @Test(.timeLimit(.minutes(1)))
    func writesBehindALockFailBusyInBoundedTimeAndNothingIsWritten() async throws {
        let path = scratch.path("store.sqlite")
        let store = try SQLiteStore(path: path, busyTimeout: .milliseconds(300))
        // Another connection (as another process would) holds the write lock, on a thread of its own, until released.
        // It waits out a checkpoint of the store's to take the lock; failing to take it fails the test, not hangs it.
        let other = try TestDatabase.sideConnection(to: path)
        let release = DispatchSemaphore(value: 0)
        try await withCheckedThrowingContinuation { (held: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                var holding = false
                do {
                    try other.inDatabase { db in
                        try db.execute(sql: "BEGIN IMMEDIATE")
                        holding = true
                        held.resume()
                        release.wait()
                        try db.execute(sql: "COMMIT")
                    }
                } catch {
                    if !holding { held.resume(throwing: error) }
                }
            }
        }
        let locked = ContinuousClock.now
        let finished = try await withThrowingTaskGroup(of: (StoreError?, Duration).self) { group in
            for index in 0..<3 {
                group.addTask {
                    let user = StoredUser(
                        userHandle: Data([UInt8(index)]), name: "waiting\(index)", displayName: "Waiting",
                        createdAt: Date(timeIntervalSince1970: 1_000))
                    do {
                        try await store.createUser(user)
                        return (nil, ContinuousClock.now - locked)
                    } catch let error as StoreError {
                        return (error, ContinuousClock.now - locked)
                    }
                }
            }
            var results: [(StoreError?, Duration)] = []
            for try await result in group { results.append(result) }
            release.signal()
            return results
        }
        for (error, elapsed) in finished {
            #expect(error?.code == .busy, "\(String(describing: error))")
            // Each waited its 0.3 s at most for the lock and 0.3 s behind the others; the bound here only says that
            // none waits for the lock's end, which comes only after all three have answered (the parallel run can hold
            // a task back for seconds; the timing suite measures the real figures).
            #expect(elapsed < .seconds(60), "a write waited \(elapsed)")
        }
        #expect(try await store.user(named: "waiting0") == nil, "a busy write changed nothing")
        // The lock gone, the same write goes through.
        let user = StoredUser(
            userHandle: Data([9]), name: "after", displayName: "After", createdAt: Date(timeIntervalSince1970: 1_000))
        try await store.createUser(user)
        #expect(try await store.user(named: "after") == user)
    }
}
