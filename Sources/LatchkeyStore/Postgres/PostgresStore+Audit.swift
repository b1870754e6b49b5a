import Foundation
import PostgresNIO

// The audit-log part of ``PostgresStore``.

extension PostgresStore {
    public func recordAuditEvents(_ events: [AuditEvent]) async throws(StoreError) {
        for event in events { try event.validate() }
        guard !events.isEmpty else { return }
        try await transaction(recording: events) { _ in }
    }

    public func auditEvents(_ query: AuditQuery) async throws(StoreError) -> [StoredAuditEvent] {
        try query.validate()
        // A missing bound is no bound: `IS NULL OR`, so that one statement serves every query.
        return try await all(
            """
            SELECT sequence, type, occurred_at, user_id, actor, ip, user_agent, authenticator, detail
            FROM audit_events
            WHERE (\(query.userID)::uuid IS NULL OR user_id = \(query.userID)::uuid)
                AND (\(query.since)::timestamptz IS NULL OR occurred_at >= \(query.since)::timestamptz)
                AND (\(query.until)::timestamptz IS NULL OR occurred_at < \(query.until)::timestamptz)
                AND (\(query.before)::bigint IS NULL OR sequence < \(query.before)::bigint)
            ORDER BY sequence DESC LIMIT \(Int64(query.limit))
            """, StoredAuditEvent.init(postgresRow:))
    }

    public func purgeAuditEvents(occurredBefore cutoff: Date) async throws(StoreError) -> Int {
        try await change("DELETE FROM audit_events WHERE occurred_at < \(cutoff) RETURNING 1")
    }
}

extension AuditEvent {
    /// The event's row, and a delivery for each endpoint it notifies.
    var postgresInsert: PostgresQuery {
        """
        WITH event AS (
            INSERT INTO audit_events (type, occurred_at, user_id, actor, ip, user_agent, authenticator, detail)
            VALUES (\(type), \(occurredAt), \(userID), \(actor), \(ip), \(userAgent), \(authenticator), \(detail))
            RETURNING sequence)
        INSERT INTO webhook_deliveries (endpoint, event_sequence, next_attempt_at)
        SELECT endpoint, event.sequence, \(occurredAt) FROM event, unnest(\(notify)::text[]) AS endpoint
        """
    }
}

extension StoredAuditEvent {
    /// An event from `sequence, type, occurred_at, user_id, actor, ip, user_agent, authenticator, detail`.
    init(postgresRow row: PostgresRow) throws {
        let (sequence, type, occurredAt, userID, actor, ip, userAgent, authenticator, detail) = try row.decode(
            (Int64, String, Date, UUID?, String?, String?, String?, String?, String?).self)
        self.init(
            sequence: sequence,
            event: AuditEvent(
                type: type, occurredAt: occurredAt, userID: userID, actor: actor, ip: ip, userAgent: userAgent,
                authenticator: authenticator, detail: detail))
    }
}
