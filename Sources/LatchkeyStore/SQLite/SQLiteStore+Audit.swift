import Foundation
import GRDB

// The audit-log part of ``SQLiteStore``.

extension SQLiteStore {
    public func recordAuditEvents(_ events: [AuditEvent]) async throws(StoreError) {
        for event in events { try event.validate() }
        guard !events.isEmpty else { return }
        try await write { db in try Self.insert(events, db: db) }
    }

    public func auditEvents(_ query: AuditQuery) async throws(StoreError) -> [StoredAuditEvent] {
        try query.validate()
        // A condition for each bound the query gives.
        let bounds: [(condition: String, value: (any DatabaseValueConvertible)?)] = [
            ("user_id = ?", query.userID), ("occurred_at >= ?", query.since.map(Self.milliseconds)),
            ("occurred_at < ?", query.until.map(Self.milliseconds)), ("sequence < ?", query.before),
        ]
        let given = bounds.filter { $0.value != nil }
        let filter = given.isEmpty ? "" : "WHERE " + given.map { $0.condition }.joined(separator: " AND ")
        let arguments = StatementArguments(given.map { $0.value })
        let sql = """
            SELECT sequence, type, occurred_at, user_id, actor, ip, user_agent, authenticator, detail
            FROM audit_events \(filter) ORDER BY sequence DESC LIMIT \(query.limit)
            """
        return try await read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.auditEvent) }
    }

    public func purgeAuditEvents(occurredBefore cutoff: Date) async throws(StoreError) -> Int {
        try await purge("audit_events", key: ["sequence"], where: "occurred_at < ?", Self.milliseconds(cutoff))
    }

    /// An event as a row of `audit_events` holds it.
    static func auditEvent(_ row: Row) -> StoredAuditEvent {
        StoredAuditEvent(
            sequence: row["sequence"],
            event: AuditEvent(
                type: row["type"], occurredAt: date(milliseconds: row["occurred_at"]), userID: row["user_id"],
                actor: row["actor"], ip: row["ip"], userAgent: row["user_agent"], authenticator: row["authenticator"],
                detail: row["detail"]))
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// A time as the log keeps it: whole milliseconds since 1970.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Writes `events` with the statements of the transaction `db` is in.
    static func insert(_ events: [AuditEvent], db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO audit_events (type, occurred_at, user_id, actor, ip, user_agent, authenticator, detail)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for event in events {
            try statement.execute(arguments: [
                event.type, milliseconds(event.occurredAt), event.userID, event.actor, event.ip, event.userAgent,
                event.authenticator, event.detail,
            ])
            guard !event.notify.isEmpty else { continue }
            let sequence = db.lastInsertedRowID
            for endpoint in event.notify {
                try db.cachedStatement(
                    sql: "INSERT INTO webhook_deliveries (endpoint, event_sequence, next_attempt_at) VALUES (?, ?, ?)"
                ).execute(arguments: [endpoint, sequence, milliseconds(event.occurredAt)])
            }
        }
    }
}
