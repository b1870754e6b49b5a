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
        // Read on the store's reader thread; expected outside it, where the test runs.
        let uncovered = try await withStore(.sqlite) { store in
            try await #require(store as? SQLiteStore).read { db in
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
        }
        #expect(uncovered.isEmpty, "no unique index on the column alone: \(uncovered.map(\.sqliteColumn))")
    }

    @Test(
        "each PostgreSQL constraint is a unique index of the migrated schema on the same table and column alone",
        .enabled(if: Backend.postgresURL != nil, Comment(rawValue: Backend.skipMessage)))
    func postgresConstraintsExist() async throws {
        try await withStore(.postgres) { store in
            let postgres = try #require(store as? PostgresStore)
            // Each single-column unique index of the test's schema, by name, with its `table.column`.
            let indexes = try await postgres.all(
                """
                SELECT c.relname, t.relname || '.' || a.attname
                FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = i.indkey[0]
                WHERE i.indisunique AND i.indnatts = 1 AND c.relnamespace = to_regnamespace(current_schema())
                """
            ) { try $0.decode((String, String).self) }
            let columns = Dictionary(indexes, uniquingKeysWith: { first, _ in first })
            for value in UniqueValue.allCases {
                #expect(
                    columns[value.postgresConstraint] == value.sqliteColumn,
                    "\(value): \(value.postgresConstraint) is not a unique index on \(value.sqliteColumn) alone")
            }
        }
    }
}
