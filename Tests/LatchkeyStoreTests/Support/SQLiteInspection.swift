import Foundation
import GRDB

@testable import LatchkeyStore

/// Looks into a SQLite store's schema and plans, and writes rows as an older schema had them.
enum SQLiteInspection {
    /// The query plan's lines for `sql`.
    static func plan(_ sql: String, arguments: StatementArguments = [Data([1])], in store: SQLiteStore) async throws
        -> [String]
    {
        try await store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    /// The named indexes of `table` (not those SQLite makes for a primary key or `UNIQUE`), by name.
    static func indexes(of table: String, in store: SQLiteStore) async throws -> [String] {
        try await store.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
                arguments: [table]
            )
        }
    }

    /// Inserts a credential with the columns every schema version has had, for a database migrated only part-way.
    static func insertCredential(id: Data, of userID: UUID, into db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO credentials (id, user_id, public_key, algorithm, sign_count, aaguid, transports, backup_eligible,
                backed_up, attestation_format, user_verified, created_at) VALUES (?, ?, ?, -7, 0, ?, '[]', 0, 0, 'none', 1, ?)
                """,
            arguments: [id, userID, Data(repeating: 4, count: 77), UUID(), Make.now]
        )
    }
}
