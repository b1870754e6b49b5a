import Foundation

/// The admin API's paths (its own listener, `--admin-port`; `Authorization: Bearer <admin key>`).
public enum AdminPaths {
    /// `GET ?name=`, `?email=`, `?credentialId=` or `?appleId=` (exactly one): the matching users (``AdminUserList``).
    public static let users = "/admin/v1/users"
    /// `GET` one user with passkeys, sessions, addresses and ways in (``AdminUserDetail``); `DELETE` deletes the user
    /// (revoking Apple authorizations first).
    public static func user(id: String) -> String { "/admin/v1/users/\(id)" }
    /// `DELETE` removes one of the user's passkeys (`?force=true` removes the last way in too).
    public static func passkey(user: String, id: String) -> String { "/admin/v1/users/\(user)/passkeys/\(id)" }
    /// `DELETE` ends every session of the user (``AdminEndedSessions``).
    public static func sessions(user: String) -> String { "/admin/v1/users/\(user)/sessions" }
    /// `POST` ``AdminRecoveryLinkRequest``: a recovery link for the user (``AdminRecoveryLink``), to send them.
    public static func recoveryLink(user: String) -> String { "/admin/v1/users/\(user)/recovery-link" }
    /// `GET`: Prometheus metrics.
    public static let metrics = "/admin/v1/metrics"
    /// `GET ?user=&since=&until=&before=&limit=` (all optional): audit events, newest first (``AdminAuditEventList``).
    public static let audit = "/admin/v1/audit"
    /// `GET`: the webhook endpoints and their deliveries (``AdminWebhookList``).
    public static let webhooks = "/admin/v1/webhooks"
}

/// A user as the admin API lists it.
public struct AdminUserSummary: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    public var displayName: String
    public var createdAt: Date

    public init(id: String, name: String, displayName: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.createdAt = createdAt
    }
}

/// The answer to `GET /admin/v1/users?…`.
public struct AdminUserList: Codable, Hashable, Sendable {
    public var users: [AdminUserSummary]

    public init(users: [AdminUserSummary]) {
        self.users = users
    }
}

/// One user with everything an operator looks at.
public struct AdminUserDetail: Codable, Hashable, Sendable {
    public var user: AdminUserSummary
    public var signInMethods: SignInMethods
    public var passkeys: [PasskeySummary]
    /// Live sessions, newest first (`current` is always false here).
    public var sessions: [SessionSummary]
    public var emails: [EmailAddress]

    public init(
        user: AdminUserSummary, signInMethods: SignInMethods, passkeys: [PasskeySummary], sessions: [SessionSummary],
        emails: [EmailAddress]
    ) {
        self.user = user
        self.signInMethods = signInMethods
        self.passkeys = passkeys
        self.sessions = sessions
        self.emails = emails
    }
}

/// The answer to `DELETE /admin/v1/users/{id}/sessions`.
public struct AdminEndedSessions: Codable, Hashable, Sendable {
    public var ended: Int

    public init(ended: Int) {
        self.ended = ended
    }
}

/// The body of `POST /admin/v1/users/{id}/recovery-link` (both optional).
public struct AdminRecoveryLinkRequest: Codable, Hashable, Sendable {
    /// The page the link opens (one of the server's origins; the first by default).
    public var origin: String?
    /// Seconds the link works (a day by default, at most a week).
    public var lifetime: Int?

    public init(origin: String? = nil, lifetime: Int? = nil) {
        self.origin = origin
        self.lifetime = lifetime
    }
}

/// A recovery link for an operator to send to the user.
public struct AdminRecoveryLink: Codable, Hashable, Sendable {
    public var token: String
    public var url: String
    public var expiresAt: Date

    public init(token: String, url: String, expiresAt: Date) {
        self.token = token
        self.url = url
        self.expiresAt = expiresAt
    }
}

/// One security event of the audit log.
public struct AdminAuditEvent: Codable, Hashable, Sendable {
    /// The event's place in the log: newer events have larger ones (`?before=` pages with it).
    public var sequence: Int64
    /// What happened: `signin.succeeded`, `passkey.added`, … (docs/SERVER.md lists them).
    public var type: String
    public var occurredAt: Date
    /// The account, as `/admin/v1/users/{id}` names it; absent when none is known.
    public var userId: String?
    /// Who acted when not the user: `admin:<key name>`, `apple`, `cli`.
    public var actor: String?
    public var ip: String?
    public var userAgent: String?
    /// The authenticator's name (or AAGUID) for passkey events.
    public var authenticator: String?
    /// The error code of a refused sign-in, the sign-in method, a passkey's credential ID, an address.
    public var detail: String?

    public init(
        sequence: Int64, type: String, occurredAt: Date, userId: String? = nil, actor: String? = nil, ip: String? = nil,
        userAgent: String? = nil, authenticator: String? = nil, detail: String? = nil
    ) {
        self.sequence = sequence
        self.type = type
        self.occurredAt = occurredAt
        self.userId = userId
        self.actor = actor
        self.ip = ip
        self.userAgent = userAgent
        self.authenticator = authenticator
        self.detail = detail
    }
}

/// The answer to `GET /admin/v1/audit`.
public struct AdminAuditEventList: Codable, Hashable, Sendable {
    public var events: [AdminAuditEvent]
    /// The `before` of the next page (older events), when this page is full.
    public var next: Int64?

    public init(events: [AdminAuditEvent], next: Int64? = nil) {
        self.events = events
        self.next = next
    }
}

/// The body of a webhook (`POST` to an endpoint of `--webhooks-file`), with the Standard Webhooks headers
/// `webhook-id` (`evt_<sequence>`, the same on every attempt), `webhook-timestamp` and `webhook-signature`.
public struct WebhookPayload: Codable, Hashable, Sendable {
    /// The event's type, as ``AdminAuditEvent/type``.
    public var type: String
    /// When the event occurred.
    public var timestamp: Date
    public var data: AdminAuditEvent

    public init(type: String, timestamp: Date, data: AdminAuditEvent) {
        self.type = type
        self.timestamp = timestamp
        self.data = data
    }
}

/// A webhook endpoint and its deliveries, as `GET /admin/v1/webhooks` shows it.
public struct AdminWebhookEndpoint: Codable, Hashable, Sendable {
    public var name: String
    public var url: String
    /// The event types it gets; absent for all.
    public var events: [String]?
    /// Deliveries waiting for their first or next attempt.
    public var pending: Int
    public var delivered: Int
    /// Deliveries given up (after a day of attempts, or refused for good).
    public var failed: Int
    public var lastAttemptAt: Date?
    /// The error of the latest failed attempt (`HTTP 503`, `connection refused`, …).
    public var lastError: String?

    public init(
        name: String, url: String, events: [String]?, pending: Int, delivered: Int, failed: Int, lastAttemptAt: Date?,
        lastError: String?
    ) {
        self.name = name
        self.url = url
        self.events = events
        self.pending = pending
        self.delivered = delivered
        self.failed = failed
        self.lastAttemptAt = lastAttemptAt
        self.lastError = lastError
    }
}

/// The answer to `GET /admin/v1/webhooks`.
public struct AdminWebhookList: Codable, Hashable, Sendable {
    public var endpoints: [AdminWebhookEndpoint]

    public init(endpoints: [AdminWebhookEndpoint]) {
        self.endpoints = endpoints
    }
}
