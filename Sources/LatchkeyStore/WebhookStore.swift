import Foundation

/// The webhook part of a store: the outbox of deliveries. A delivery is queued in the same transaction as the audit
/// event it carries (``AuditEvent/notify``), so an event is sent if and only if it happened; deleting the event (its
/// retention) deletes its deliveries. Every ``LatchkeyStore`` is one.
public protocol WebhookStore: Sendable {
    /// Leases up to `limit` pending deliveries due at `now` until `leaseUntil` (counting an attempt for each), with
    /// their events. On PostgreSQL instances claiming at once take different ones.
    func claimWebhookDeliveries(now: Date, leaseUntil: Date, limit: Int) async throws(StoreError)
        -> [StoredWebhookDelivery]

    /// Records how an attempt at delivery `id` ended.
    func finishWebhookDelivery(id: Int64, _ outcome: WebhookOutcome, at time: Date) async throws(StoreError)

    /// Each endpoint's deliveries, counted by state.
    func webhookStatus() async throws(StoreError) -> [WebhookEndpointStatus]
}

/// One delivery of one event to one endpoint.
public struct StoredWebhookDelivery: Sendable, Hashable {
    public var id: Int64
    /// The endpoint's name.
    public var endpoint: String
    public var event: StoredAuditEvent
    /// Attempts so far, the one just claimed included.
    public var attempts: Int

    public init(id: Int64, endpoint: String, event: StoredAuditEvent, attempts: Int) {
        self.id = id
        self.endpoint = endpoint
        self.event = event
        self.attempts = attempts
    }
}

/// How an attempt at a delivery ended.
public enum WebhookOutcome: Sendable, Hashable {
    /// The endpoint took it (a 2xx answer).
    case delivered
    /// It failed (`error` says how); try again at `next`.
    case retry(next: Date, error: String)
    /// It failed and will not be tried again.
    case failed(error: String)
}

extension WebhookOutcome {
    /// The delivery's columns after this outcome, as both stores record it at `time`: its state, when it is next due
    /// (`time` when it is done), and the error to keep (nil keeps the last one).
    func columns(at time: Date) -> (state: String, next: Date, error: String?) {
        switch self {
        case .delivered: ("delivered", time, nil)
        case .retry(let next, let error): ("pending", next, error)
        case .failed(let error): ("failed", time, error)
        }
    }
}

/// An endpoint's deliveries as the admin API shows them.
public struct WebhookEndpointStatus: Sendable, Hashable {
    public var endpoint: String
    public var pending: Int
    public var delivered: Int
    public var failed: Int
    /// When a delivery to it was last tried.
    public var lastAttemptAt: Date?
    /// The error of the latest failed attempt.
    public var lastError: String?

    public init(
        endpoint: String, pending: Int, delivered: Int, failed: Int, lastAttemptAt: Date?, lastError: String?
    ) {
        self.endpoint = endpoint
        self.pending = pending
        self.delivered = delivered
        self.failed = failed
        self.lastAttemptAt = lastAttemptAt
        self.lastError = lastError
    }
}
