import Foundation
import GRDB

// The shared server state of ``SQLiteStore``: its secrets.

extension SQLiteStore {
    public func serverSecret(named name: String, candidate: Data) async throws(StoreError) -> Data {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                arguments: [name, candidate])
            return try Data.fetchOne(db, sql: "SELECT value FROM server_secrets WHERE name = ?", arguments: [name])
                ?? candidate
        }
    }
}
