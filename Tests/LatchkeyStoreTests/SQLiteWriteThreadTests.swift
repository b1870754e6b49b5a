import Foundation
import GRDB
import NIOCore
import NIOPosix
import Testing

@testable import LatchkeyStore

/// Where ``SQLiteStore``'s write transactions run: in place on an event loop (`latchkey serve` runs Swift Concurrency
/// on NIO's loops), and off Swift Concurrency's cooperative pool, which must never block.
@Suite("SQLite writes: in place on an event loop, never blocking the cooperative pool")
struct SQLiteWriteThreadTests {
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

    /// Whether a write transaction's closure runs on an event loop's thread.
    private func writeRunsOnAnEventLoop(_ store: SQLiteStore) async throws -> Bool {
        try await store.write { _ in MultiThreadedEventLoopGroup.currentEventLoop != nil }
    }

    @Test("on an event loop the transaction runs on the loop's own thread, with no hop to the writer queue's thread")
    func onAnEventLoopTheWriteRunsInPlace() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let executor = EventLoopTaskExecutor(group.next())
        try await withStore { store in
            let inPlace = try await withTaskExecutorPreference(executor) { try await writeRunsOnAnEventLoop(store) }
            #expect(inPlace)
            // And what it writes is there.
            let user = StoredUser(
                userHandle: Data([1, 2, 3]), name: "looped", displayName: "Looped",
                createdAt: Date(timeIntervalSince1970: 1_000))
            try await withTaskExecutorPreference(executor) { try await store.createUser(user) }
            #expect(try await store.user(named: "looped") == user)
        }
        try await group.shutdownGracefully()
    }

    @Test(
        "elsewhere the transaction runs on the writer queue's thread, so a thread of the cooperative pool never waits for it"
    )
    func offAnEventLoopTheWriteHops() async throws {
        try await withStore { store in
            let onEventLoop = try await writeRunsOnAnEventLoop(store)
            #expect(onEventLoop == false)
        }
    }
}
