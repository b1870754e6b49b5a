import Foundation
import GRDB
import Testing

@testable import LatchkeyStore

/// A database migrated by a newer Latchkey is refused at start-up with a clear error, not opened and failing sign-ins.
@Suite("Schema versions: a newer database is refused")
struct SchemaVersionTests {
    @Test(
        "migrating a database that has a migration this version does not know throws unavailable",
        arguments: Backend.available)
    func newerSchemaIsRefused(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            switch store {
            case let sqlite as SQLiteStore:
                try await sqlite.write { db in
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from a newer version')")
                }
            case let postgres as PostgresStore:
                try await postgres.pool { client in
                    try await client.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES (99, 'from a newer version')",
                        logger: TestDatabase.logger
                    )
                }
            default:
                Issue.record("an unexpected store: \(type(of: store))")
            }
            do {
                try await store.migrate()
                Issue.record("a newer schema was migrated")
            } catch let error as StoreError {
                #expect(error.code == .unavailable)
                #expect(error.message.contains("newer version of Latchkey"), "\(error)")
                #expect(error.message.contains("99"), "names the migration: \(error)")
            }
        }
    }
}
