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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-unique-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        _ = try SQLiteStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try await queue.read { db in
            for value in UniqueValue.allCases {
                let parts = value.sqliteColumn.split(separator: ".").map(String.init)
                let (table, column) = (parts[0], parts[1])
                let uniqueIndexes = try Row.fetchAll(
                    db, sql: "SELECT name, \"unique\" FROM pragma_index_list(?)", arguments: [table]
                )
                .filter { $0["unique"] == 1 }.map { $0["name"] as String }
                let covered = try uniqueIndexes.contains { index in
                    try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index]) == [
                        column
                    ]
                }
                #expect(covered, "\(value): no unique index on \(value.sqliteColumn) alone")
            }
        }
    }

    @Test(
        "each PostgreSQL constraint is an index of the migrated schema",
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
                    "SELECT relname FROM pg_class WHERE relkind = 'i' AND relnamespace = to_regnamespace(\(schema))"
                ) { try $0.decode(String.self) }
            }
            for value in UniqueValue.allCases {
                #expect(indexes.contains(value.postgresConstraint), "\(value): no index \(value.postgresConstraint)")
            }
        }
    }
}
