import Foundation
import PostgresNIO

// The webhook part of ``PostgresStore``.

extension PostgresStore {
    public func claimWebhookDeliveries(now: Date, leaseUntil: Date, limit: Int) async throws(StoreError)
        -> [StoredWebhookDelivery]
    {
        try await write { [self] client in
            // SKIP LOCKED: instances claiming at once take different deliveries.
            try await client.all(
                """
                WITH claimed AS (
                    UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = \(leaseUntil),
                        last_attempt_at = \(now)
                    WHERE id IN (
                        SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= \(now)
                        ORDER BY next_attempt_at LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED)
                    RETURNING id, endpoint, event_sequence, attempts)
                SELECT e.sequence, e.type, e.occurred_at, e.user_id, e.actor, e.ip, e.user_agent, e.authenticator,
                    e.detail, c.id, c.endpoint, c.attempts
                FROM claimed c JOIN audit_events e ON e.sequence = c.event_sequence ORDER BY c.id
                """,
                logger: logger
            ) { row in
                // The event's nine columns first, as `StoredAuditEvent(postgresRow:)` reads them; then the delivery's.
                let cells = row.makeRandomAccess()
                return StoredWebhookDelivery(
                    id: try cells["id"].decode(Int64.self), endpoint: try cells["endpoint"].decode(String.self),
                    event: try StoredAuditEvent(postgresRow: row),
                    attempts: Int(try cells["attempts"].decode(Int64.self)))
            }
        }
    }

    public func finishWebhookDelivery(id: Int64, _ outcome: WebhookOutcome, at time: Date) async throws(StoreError) {
        let (state, next, error) = outcome.columns(at: time)
        try await change(
            """
            UPDATE webhook_deliveries SET state = \(state), next_attempt_at = \(next),
                last_error = coalesce(\(error)::text, last_error)
            WHERE id = \(id)
            """)
    }

    public func webhookStatus() async throws(StoreError) -> [WebhookEndpointStatus] {
        try await all(
            """
            SELECT endpoint,
                count(*) FILTER (WHERE state = 'pending'),
                count(*) FILTER (WHERE state = 'delivered'),
                count(*) FILTER (WHERE state = 'failed'),
                max(last_attempt_at),
                (SELECT last_error FROM webhook_deliveries e WHERE e.endpoint = d.endpoint
                    AND e.last_error IS NOT NULL ORDER BY e.last_attempt_at DESC, e.id DESC LIMIT 1)
            FROM webhook_deliveries d GROUP BY endpoint ORDER BY endpoint
            """
        ) { row in
            let (endpoint, pending, delivered, failed, last, error) = try row.decode(
                (String, Int64, Int64, Int64, Date?, String?).self)
            return WebhookEndpointStatus(
                endpoint: endpoint, pending: Int(pending), delivered: Int(delivered), failed: Int(failed),
                lastAttemptAt: last, lastError: error)
        }
    }
}
