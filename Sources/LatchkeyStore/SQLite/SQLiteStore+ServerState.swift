import Foundation
import GRDB

// The shared server state of ``SQLiteStore``: secrets and request counters.

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

    public func countRequest(key: String, window: TimeInterval, now: Date) async throws(StoreError) -> Int {
        let windowStart = now.addingTimeInterval(-window)
        return try await write { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        INSERT INTO request_counts (key, window_start, count) VALUES (?, ?, 1)
                        ON CONFLICT (key) DO UPDATE SET
                            count = CASE WHEN request_counts.window_start <= ? THEN 1 ELSE request_counts.count + 1 END,
                            window_start = CASE WHEN request_counts.window_start <= ? THEN excluded.window_start ELSE request_counts.window_start END
                        RETURNING count
                        """),
                arguments: [key, now, windowStart, windowStart]
            ) ?? 1
        }
    }

    public func purgeRequestCounts(before cutoff: Date) async throws(StoreError) -> Int {
        try await purge("request_counts", where: "window_start < ?", cutoff)
    }
}
