import Foundation
import GRDB
import LatchkeyTestSupport
import PostgresNIO
import Testing

@testable import LatchkeyStore

/// Each ``UniqueValue`` names what the migrated schemas hold, so a violation of it is reported with its own conflict
/// message, not the generic one: a migration that renames a constraint or an index fails here.
@Suite("Unique values and the schemas")
struct UniqueValueTests {
    @Test("each SQLite column is the only column of a unique index")
    func sqliteColumnsAreUnique() async throws {
        let scratch = ScratchDirectory(prefix: "latchkey-unique")
        let path = scratch.path("store.sqlite")
        let store = try SQLiteStore(path: path)
        // Read on the store's reader thread; expected outside it, where the test runs.
        let uncovered = try await store.read { db in
            try UniqueValue.allCases.filter { value in
                let parts = value.sqliteColumn.split(separator: ".").map(String.init)
                let (table, column) = (parts[0], parts[1])
                let uniqueIndexes = try Row.fetchAll(
                    db, sql: "SELECT name, \"unique\" FROM pragma_index_list(?)", arguments: [table]
                )
                .filter { $0["unique"] == 1 }.map { $0["name"] as String }
                return try !uniqueIndexes.contains { index in
                    try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index]) == [
                        column
                    ]
                }
            }
        }
        #expect(uncovered.isEmpty, "no unique index on the column alone: \(uncovered.map(\.sqliteColumn))")
    }

    @Test(
        "each PostgreSQL constraint is a unique index of the migrated schema",
        .enabled(if: Backend.postgresURL != nil, Comment(rawValue: Backend.skipMessage)))
    func postgresConstraintsExist() async throws {
        try await TestDatabase.with(.postgres) { database in
            let configuration = try #require(database.postgresConfiguration)
            let schema = try #require(configuration.schema)
            let store = try PostgresStore(configuration: configuration, logger: TestDatabase.logger)
            let indexes = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.migrate()
                return try await store.all(
                    """
                    SELECT c.relname FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
                    WHERE i.indisunique AND c.relnamespace = to_regnamespace(\(schema))
                    """
                ) { try $0.decode(String.self) }
            }
            for value in UniqueValue.allCases {
                #expect(
                    indexes.contains(value.postgresConstraint), "\(value): no unique index \(value.postgresConstraint)")
            }
        }
    }
}
