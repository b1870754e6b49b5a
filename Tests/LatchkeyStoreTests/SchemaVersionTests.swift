import Foundation
import GRDB
import Testing

@testable import LatchkeyStore

/// A database migrated by a newer Latchkey is refused at start-up with a clear error, not opened and failing sign-ins;
/// a migration that fails part-way leaves nothing of itself.
@Suite("Schema versions: a newer database is refused, a failed migration undone")
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

    /// PostgreSQL's migrations run their statements and then their Swift step (`Migration.then`) in one transaction: a
    /// step that throws undoes the statements before it and is not recorded, so the next start tries it again whole.
    @Test(
        "a PostgreSQL migration whose Swift step throws leaves neither its table nor its version",
        .enabled(if: Backend.postgresURL != nil, Comment(rawValue: Backend.skipMessage)))
    func failedMigrationIsUndone() async throws {
        struct StepFailed: Error {}
        let failing = PostgresSchema.Migration(
            version: 1_000, name: "a test's failing step", statements: ["CREATE TABLE half_done (id int)"],
            then: { _, _ in throw StepFailed() })
        try await withStore(.postgres) { store in
            let postgres = try #require(store as? PostgresStore)
            do throws(StoreError) {
                try await postgres.migrate(upTo: .max, PostgresSchema.migrations + [failing])
                Issue.record("the failing step was not reported")
            } catch {
                // The step's own error, not a timeout before the migration ran.
                #expect(error.message.contains("StepFailed"), "\(error)")
            }
            let left = try await postgres.all(
                "SELECT (to_regclass('half_done') IS NOT NULL)::int + count(*) FROM schema_migrations WHERE version = 1000"
            ) { try $0.decode(Int.self) }
            #expect(left == [0], "the table or the version survived the failed step")
        }
    }
}
