import Foundation
import GRDB
import NIOCore
import NIOPosix
import Testing

@testable import LatchkeyStore

/// Where ``SQLiteStore``'s statements run: on the pool's own threads, never on the caller's. `latchkey serve` runs
/// Swift Concurrency on NIO's event loops, and a write waiting for another process's lock must not stall a loop.
@Suite("SQLite calls run on the pool's threads, never on an event loop")
struct SQLiteThreadTests {
    /// Runs the jobs of the tasks that prefer it on one event loop, as `latchkey serve`'s global executor does.
    final class EventLoopTaskExecutor: TaskExecutor {
        let loop: any EventLoop

        init(_ loop: any EventLoop) {
            self.loop = loop
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    private func withStore(_ body: (SQLiteStore) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-write-\(UUID().uuidString).sqlite"
        ).path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try await body(try SQLiteStore(path: path))
    }

    @Test("a write and a read begun on an event loop run on the pool's threads, and what is written is there")
    func fromAnEventLoopTheStatementsRunElsewhere() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let executor = EventLoopTaskExecutor(group.next())
        try await withStore { store in
            let (callerOnLoop, writeOnLoop, readOnLoop) = try await withTaskExecutorPreference(executor) {
                let caller = MultiThreadedEventLoopGroup.currentEventLoop != nil
                let write = try await store.write { _ in MultiThreadedEventLoopGroup.currentEventLoop != nil }
                let read = try await store.read { _ in MultiThreadedEventLoopGroup.currentEventLoop != nil }
                return (caller, write, read)
            }
            #expect(callerOnLoop, "the test's task runs on the loop")
            #expect(!writeOnLoop)
            #expect(!readOnLoop)
            let user = StoredUser(
                userHandle: Data([1, 2, 3]), name: "looped", displayName: "Looped",
                createdAt: Date(timeIntervalSince1970: 1_000))
            try await withTaskExecutorPreference(executor) { try await store.createUser(user) }
            #expect(try await store.user(named: "looped") == user)
        }
        try await group.shutdownGracefully()
    }
}
