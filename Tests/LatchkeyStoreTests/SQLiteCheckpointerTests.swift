import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import LatchkeyStore

/// ``SQLiteCheckpointer``: while ``SQLiteStore/run()`` runs, the write-ahead log is copied back by a thread of its own,
/// and the writer's commits only checkpoint past the backstop; otherwise SQLite's automatic checkpoint, as before.
@Suite("SQLite checkpoints: on a thread of their own while the store runs")
struct SQLiteCheckpointerTests {
    private func withStore(
        threshold: Int32, backstop: Int32, _ body: (SQLiteStore, String) async throws -> Void
    ) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-checkpoint-\(UUID().uuidString).sqlite"
        ).path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let store = try SQLiteStore(
            path: path, checkpointer: SQLiteCheckpointer(path: path, threshold: threshold, backstop: backstop))
        try await body(store, path)
    }

    /// The writer connection's automatic checkpoint in frames: 0 while another WAL hook (the checkpointer's) is set.
    private func automaticCheckpoint(_ store: SQLiteStore) async throws -> Int {
        try await store.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? -1 }
    }

    /// Runs the store until `body` returns, with the checkpointer's hook installed.
    private func whileRunning(_ store: SQLiteStore, _ body: () async throws -> Void) async throws {
        let running = Task { try await store.run() }
        var attempts = 0
        while try await automaticCheckpoint(store) != 0 {
            attempts += 1
            try #require(attempts < 500, "run() did not install the checkpointer")
            try await Task.sleep(for: .milliseconds(10))
        }
        do {
            try await body()
        } catch {
            running.cancel()
            _ = await running.result
            throw error
        }
        running.cancel()
        try await running.value
    }

    private func createUsers(_ count: Int, in store: SQLiteStore, prefix: String) async throws {
        for index in 0..<count {
            try await store.createUser(
                StoredUser(
                    userHandle: Data("\(prefix)-\(index)".utf8), name: "\(prefix)\(index)",
                    displayName: "User \(index)",
                    createdAt: Date(timeIntervalSince1970: 1_000)
                ))
        }
    }

    @Test("a store that is not run keeps SQLite's automatic checkpoint of 1,000 frames")
    func notRunKeepsSQLitesCheckpoint() async throws {
        try await withStore(threshold: 8, backstop: 10_000) { store, _ in
            #expect(try await automaticCheckpoint(store) == 1000)
            try await createUsers(20, in: store, prefix: "idle")
            #expect(store.checkpointer.backgroundCheckpoints.load(ordering: .relaxed) == 0)
        }
    }

    @Test("while the store runs, the thread copies the log once the threshold is waiting, and the writer does not")
    func runningCheckpointsInTheBackground() async throws {
        try await withStore(threshold: 8, backstop: 10_000) { store, _ in
            try await whileRunning(store) {
                try await createUsers(40, in: store, prefix: "busy")
                var attempts = 0
                while store.checkpointer.backgroundCheckpoints.load(ordering: .relaxed) == 0 {
                    attempts += 1
                    try #require(attempts < 500, "no background checkpoint")
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(store.checkpointer.writerCheckpoints.load(ordering: .relaxed) == 0)
            }
            // Stopped: the writer has SQLite's automatic checkpoint back, and everything written reads back.
            #expect(try await automaticCheckpoint(store) == 1000)
            for index in [0, 39] {
                #expect(try await store.user(named: "busy\(index)")?.displayName == "User \(index)")
            }
        }
    }

    @Test("past the backstop the writer's commit checkpoints in place, and the log starts over")
    func backstopCheckpointsInPlace() async throws {
        // A threshold no commit reaches: only the backstop checkpoints.
        try await withStore(threshold: 1_000_000, backstop: 24) { store, path in
            try await whileRunning(store) {
                try await createUsers(100, in: store, prefix: "full")
                #expect(store.checkpointer.writerCheckpoints.load(ordering: .relaxed) > 0)
                #expect(store.checkpointer.backgroundCheckpoints.load(ordering: .relaxed) == 0)
                // A hundred users are a few hundred frames; the log rewound each time it passed 24.
                let frames = try await WALFrames.count(at: path)
                #expect(frames > 0 && frames < 24 + 8, "the log holds \(frames) frames")
            }
        }
    }

    @Test("the thread and the writer's backstop together: every write reads back and the log stays short")
    func threadAndBackstopTogether() async throws {
        // Both at once: the thread wakes every 8 frames, the writer checkpoints past 24, and either may find the
        // other holding SQLite's checkpoint lock (then it does nothing and the next commit asks again).
        try await withStore(threshold: 8, backstop: 24) { store, path in
            try await whileRunning(store) {
                try await createUsers(300, in: store, prefix: "both")
                // 300 users are well over a thousand frames: a log that never rewound would hold them all.
                let frames = try await WALFrames.count(at: path)
                #expect(frames < 500, "the log holds \(frames) frames")
                #expect(store.checkpointer.backgroundCheckpoints.load(ordering: .relaxed) > 0)
            }
            for index in [0, 150, 299] {
                #expect(try await store.user(named: "both\(index)")?.displayName == "User \(index)")
            }
        }
    }

    @Test("a checkpointer whose connection cannot be opened throws unavailable, and can be started again later")
    func startFailsWithAStoreError() throws {
        let missing = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-missing-\(UUID().uuidString)/store.sqlite").path
        let checkpointer = SQLiteCheckpointer(path: missing)
        for _ in 0..<2 {
            // Not "already running" the second time: a failed start leaves it stopped.
            #expect(throws: StoreError.self) { _ = try checkpointer.start() }
            do {
                _ = try checkpointer.start()
            } catch {
                #expect(error.code == .unavailable)
            }
        }
        checkpointer.stop()  // nothing to stop: returns at once
    }
}
