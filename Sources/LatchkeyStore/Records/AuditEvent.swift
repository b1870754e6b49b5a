import Foundation

/// One security event for the audit log: what happened, to whose account, when, and from where.
///
/// A store writes an event in the same transaction as the change it records (``AuditTrail``), so the log never claims
/// a change that did not happen nor misses one that did.
public struct AuditEvent: Sendable, Hashable, Codable {
    /// What happened, a dotted name such as `passkey.added` (ASCII, at most ``maximumTypeLength``).
    public var type: String
    public var occurredAt: Date
    /// The account it happened to; nil when there is none (a sign-in for an unknown credential).
    public var userID: UUID?
    /// Who did it when not the user: `admin:<key name>`, `apple`.
    public var actor: String?
    /// The client's address as the server saw it.
    public var ip: String?
    public var userAgent: String?
    /// The authenticator's name (from its AAGUID), for passkey events.
    public var authenticator: String?
    /// What else identifies the event: an error code, a credential ID, a sign-in method.
    public var detail: String?
    /// The webhook endpoints to send the event to, by name: a delivery for each is queued in the same transaction
    /// (``WebhookStore``). Not kept with the event.
    public var notify: [String] = []

    /// The longest event type.
    public static let maximumTypeLength = 64
    /// The longest of the other texts (longer ones are refused; the server shortens a user agent first).
    public static let maximumTextLength = 512

    public init(
        type: String, occurredAt: Date, userID: UUID? = nil, actor: String? = nil, ip: String? = nil,
        userAgent: String? = nil, authenticator: String? = nil, detail: String? = nil
    ) {
        self.type = type
        self.occurredAt = occurredAt
        self.userID = userID
        self.actor = actor
        self.ip = ip
        self.userAgent = userAgent
        self.authenticator = authenticator
        self.detail = detail
    }

    /// Throws ``StoreError/Code/invalidRecord`` for an event no store keeps.
    public func validate() throws(StoreError) {
        guard !type.isEmpty, type.utf8.count <= Self.maximumTypeLength, type.allSatisfy(\.isASCII) else {
            throw StoreError(.invalidRecord, "an audit event type is 1 to \(Self.maximumTypeLength) ASCII characters")
        }
        guard notify.allSatisfy({ !$0.isEmpty && $0.utf8.count <= Self.maximumTypeLength }) else {
            throw StoreError(.invalidRecord, "a webhook endpoint's name is 1 to \(Self.maximumTypeLength) bytes")
        }
        for case let text? in [actor, ip, userAgent, authenticator, detail] {
            guard text.utf8.count <= Self.maximumTextLength, !text.utf8.contains(0) else {
                throw StoreError(.invalidRecord, "an audit event's texts are at most \(Self.maximumTextLength) bytes")
            }
        }
    }
}

/// An event as the log keeps it: with its place in the log.
public struct StoredAuditEvent: Sendable, Hashable {
    /// The event's place in the log, unique and increasing: newer events have larger sequences.
    public var sequence: Int64
    public var event: AuditEvent

    public init(sequence: Int64, event: AuditEvent) {
        self.sequence = sequence
        self.event = event
    }
}

/// Which events to read from the log: newest first, at most ``limit``.
public struct AuditQuery: Sendable, Hashable {
    public var userID: UUID?
    /// Events at or after this time.
    public var since: Date?
    /// Events before this time.
    public var until: Date?
    /// Events before this place in the log (the last ``StoredAuditEvent/sequence`` of the previous page).
    public var before: Int64?
    public var limit: Int

    /// The most events one query returns.
    public static let maximumLimit = 1_000

    public init(userID: UUID? = nil, since: Date? = nil, until: Date? = nil, before: Int64? = nil, limit: Int = 100) {
        self.userID = userID
        self.since = since
        self.until = until
        self.before = before
        self.limit = limit
    }

    /// Throws ``StoreError/Code/invalidRecord`` for a limit outside 1 to ``maximumLimit``.
    public func validate() throws(StoreError) {
        guard (1...Self.maximumLimit).contains(limit) else {
            throw StoreError(.invalidRecord, "an audit query's limit is 1 to \(Self.maximumLimit)")
        }
    }
}
