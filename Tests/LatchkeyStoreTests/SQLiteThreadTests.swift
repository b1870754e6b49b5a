import Foundation
import GRDB
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import LatchkeyStore

/// Where ``SQLiteStore``'s statements run: on the store's own threads, never on the caller's. `latchkey serve` runs
/// Swift Concurrency on NIO's event loops, and a write waiting for another process's lock must not stall a loop.
@Suite("SQLite calls run on the store's threads, never on an event loop")
struct SQLiteThreadTests {
    /// Runs the jobs of the tasks that prefer it on one event loop, as `latchkey serve`'s executor does (a copy of
    /// `LatchkeyServer`'s `EventLoopTaskExecutor`, which these tests cannot import).
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

    @Test("a write and a read begun on an event loop run on the store's threads, and what is written is there")
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

    /// Writes that arrive together commit together; one that fails (here, a duplicate key after a row of its own)
    /// fails alone and leaves nothing, and every other is written and answered.
    @Test("concurrent writes commit in groups; a failing one fails alone and writes nothing")
    func groupCommitIsolatesAFailingWrite() async throws {
        try await withStore { store in
            try await store.write { db in
                try db.execute(sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, tag TEXT)")
                try db.execute(sql: "INSERT INTO scratch VALUES (1, 'there already')")
            }
            let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                for id in 0..<200 {
                    group.addTask {
                        do {
                            try await store.write { db in
                                try db.execute(sql: "INSERT INTO scratch VALUES (?, 'own')", arguments: [1000 + id])
                                // Every tenth write then inserts a key that is there already, and so fails.
                                try db.execute(
                                    sql: "INSERT INTO scratch VALUES (?, 'x')",
                                    arguments: [id % 10 == 0 ? 1 : 5000 + id])
                            }
                            return (id, true)
                        } catch {
                            return (id, false)
                        }
                    }
                }
                var outcomes: [Int: Bool] = [:]
                for await (id, written) in group { outcomes[id] = written }
                return outcomes
            }
            let ids = try await store.read { db in try Int.fetchSet(db, sql: "SELECT id FROM scratch") }
            for (id, written) in outcomes {
                #expect(written == (id % 10 != 0), "write \(id)")
                #expect(
                    ids.contains(1000 + id) == written, "write \(id)'s first row is there exactly when it succeeded")
            }
            #expect(ids.count == 1 + 180 * 2)
        }
    }

    @Test("a group of writes commits synced (FULL) when any of them asks for it, and NORMAL when none does")
    func aSyncedWriteSyncsItsGroup() async throws {
        try await withStore { store in
            @Sendable func synchronous(_ db: Database) throws -> Int? {
                try Int.fetchOne(db, sql: "PRAGMA synchronous")
            }
            /// The writer is held in a write of its own until every write of `durabilities` is queued, so that they
            /// commit as one group; answers what each saw.
            func group(_ durabilities: [Durability]) async throws -> [Int?] {
                let entered = Atomic<Bool>(false)
                let release = DispatchSemaphore(value: 0)
                let holding = Task {
                    try await store.write(.unsynced) { _ in
                        entered.store(true, ordering: .releasing)
                        release.wait()
                    }
                }
                while !entered.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
                // Task.immediate queues each write before it returns.
                let writes = durabilities.map { durability in
                    Task.immediate { try await store.write(durability) { db in try synchronous(db) } }
                }
                release.signal()
                try await holding.value
                var seen: [Int?] = []
                for write in writes { seen.append(try await write.value) }
                return seen
            }
            let mixed = try await group([.unsynced, .synced, .unsynced])
            let unsynced = try await group([.unsynced, .unsynced])
            let synced = try await group([.synced])
            #expect(mixed == [2, 2, 2])
            #expect(unsynced == [1, 1])
            #expect(synced == [2])
        }
    }
}
