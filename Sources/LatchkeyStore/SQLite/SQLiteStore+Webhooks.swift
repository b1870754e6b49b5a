import Foundation
import GRDB

// The webhook part of ``SQLiteStore``.

extension SQLiteStore {
    public func claimWebhookDeliveries(now: Date, leaseUntil: Date, limit: Int) async throws(StoreError)
        -> [StoredWebhookDelivery]
    {
        let (now, leaseUntil) = (Self.milliseconds(now), Self.milliseconds(leaseUntil))
        return try await write { db in
            let claimed = try Row.fetchAll(
                db,
                sql: """
                    UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ?, last_attempt_at = ?
                    WHERE id IN (
                        SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ?
                        ORDER BY next_attempt_at LIMIT ?)
                    RETURNING id, endpoint, event_sequence, attempts
                    """,
                arguments: [leaseUntil, now, now, limit])
            return try claimed.compactMap { delivery in
                let sequence: Int64 = delivery["event_sequence"]
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT sequence, type, occurred_at, user_id, actor, ip, user_agent, authenticator, detail
                            FROM audit_events WHERE sequence = ?
                            """,
                        arguments: [sequence])
                else { return nil }
                return StoredWebhookDelivery(
                    id: delivery["id"], endpoint: delivery["endpoint"], event: Self.auditEvent(row),
                    attempts: delivery["attempts"])
            }
        }
    }

    public func finishWebhookDelivery(id: Int64, _ outcome: WebhookOutcome, at time: Date) async throws(StoreError) {
        let (state, next, error) = outcome.columns(at: time)
        try await change(
            """
            UPDATE webhook_deliveries SET state = ?, next_attempt_at = ?, last_error = coalesce(?, last_error)
            WHERE id = ?
            """, [state, Self.milliseconds(next), error, id])
    }

    public func webhookStatus() async throws(StoreError) -> [WebhookEndpointStatus] {
        try await all(
            """
            SELECT endpoint,
                count(*) FILTER (WHERE state = 'pending') AS pending,
                count(*) FILTER (WHERE state = 'delivered') AS delivered,
                count(*) FILTER (WHERE state = 'failed') AS failed,
                max(last_attempt_at) AS last_attempt_at,
                (SELECT last_error FROM webhook_deliveries e WHERE e.endpoint = d.endpoint
                    AND e.last_error IS NOT NULL ORDER BY e.last_attempt_at DESC, e.id DESC LIMIT 1) AS last_error
            FROM webhook_deliveries d GROUP BY endpoint ORDER BY endpoint
            """
        ) { row in
            WebhookEndpointStatus(
                endpoint: row["endpoint"], pending: row["pending"], delivered: row["delivered"], failed: row["failed"],
                lastAttemptAt: (row["last_attempt_at"] as Int64?).map(Self.date), lastError: row["last_error"])
        }
    }
}
