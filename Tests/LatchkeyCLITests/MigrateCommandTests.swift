import Foundation
import LatchkeyTestSupport
import Testing

@testable import LatchkeyStore

/// `latchkey migrate`: the schema as its own deployment step, on SQLite and (when the tests have one) PostgreSQL.
@Suite("latchkey migrate")
struct MigrateCommandTests {
    @Test(arguments: Backend.available)
    func migratesThenStoresWork(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database throws in
            let result = await CLIHarness.run(["migrate", "--database", database.url])
            #expect(result.status == 0, "\(result.output)")
            #expect(try result.json()["migrated"]?.boolValue == true)
            // Again: nothing left to do, and still fine.
            #expect(await CLIHarness.run(["migrate", "--database", database.url]).status == 0)
        }
    }

    @Test func aSchemaNewerThanThisVersionIsRefusedAndLeftAlone() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-migrate-\(UUID()).sqlite")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        #expect(await CLIHarness.run(["migrate", "--database", path]).status == 0)
        let store = try SQLiteStore(path: path)
        try await store.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        let refused = await CLIHarness.run(["migrate", "--database", path])
        #expect(refused.status == 1)
        #expect(refused.errorCode == "store.unavailable", "\(refused.output)")
    }

    @Test func aDatabaseURLThatIsNotOneIsAUsageError() async {
        let result = await CLIHarness.run(["migrate", "--database", "mysql://nope"])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.database")
    }
}
