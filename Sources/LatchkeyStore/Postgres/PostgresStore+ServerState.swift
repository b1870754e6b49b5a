import Foundation
import PostgresNIO

// The shared server state of ``PostgresStore``: secrets and request counters.

extension PostgresStore {
    public func serverSecret(named name: String, candidate: Data) async throws(StoreError) -> Data {
        try await pool { [self] client in
            try await client.execute(
                "INSERT INTO server_secrets (name, value) VALUES (\(name), \(candidate)) ON CONFLICT (name) DO NOTHING",
                logger: logger
            )
            return try await client.first("SELECT value FROM server_secrets WHERE name = \(name)", logger: logger) {
                try $0.decode(Data.self)
            } ?? candidate
        }
    }

    public func countRequest(key: String, window: TimeInterval, now: Date) async throws(StoreError) -> Int {
        let windowStart = now.addingTimeInterval(-window)
        return try await pool { [self] client in
            try await client.first(
                """
                INSERT INTO request_counts (key, window_start, count) VALUES (\(key), \(now), 1)
                ON CONFLICT (key) DO UPDATE SET
                    count = CASE WHEN request_counts.window_start <= \(windowStart) THEN 1 ELSE request_counts.count + 1 END,
                    window_start = CASE WHEN request_counts.window_start <= \(windowStart) THEN excluded.window_start ELSE request_counts.window_start END
                RETURNING count
                """,
                logger: logger
            ) { Int(try $0.decode(Int64.self)) } ?? 1
        }
    }

    public func purgeRequestCounts(before cutoff: Date) async throws(StoreError) -> Int {
        try await pool { [self] client in
            try await client.execute(
                "DELETE FROM request_counts WHERE window_start < \(cutoff) RETURNING 1", logger: logger)
        }
    }
}
