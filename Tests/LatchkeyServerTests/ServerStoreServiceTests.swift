import GRDB
import Testing

@testable import LatchkeyStore

/// The server runs its store as a service, and so, on SQLite, checkpoints the log on the store's own thread.
@Suite("The server's store service")
struct ServerStoreServiceTests {
    @Test("while the server runs, its SQLite writer leaves checkpoints to the checkpointer's thread")
    func serverRunsTheCheckpointer() async throws {
        try await withServer(.sqlite) { server in
            let store = try #require(server.store as? SQLiteStore)
            // 0: a WAL hook other than SQLite's automatic checkpoint is installed (run() starts as the server does).
            var attempts = 0
            while try await store.write({ db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }) != 0 {
                attempts += 1
                try #require(attempts < 500, "the store's run() did not install the checkpointer")
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }
}
