import Foundation
import Hummingbird
import LatchkeyStore
import Logging
import NIOCore
import WebAuthn

/// The audit log (`--audit-retention`, 90 days by default, 0 for none): every security event, stored with the change
/// it records in one transaction (``AuditTrail``), with the account, the time, the client's address and user agent,
/// and for passkeys the authenticator's name; read through the admin API (`GET /admin/v1/audit`).
struct AuditLog: Sendable {
    let store: any AuditStore
    /// How long events are kept; nil: the log is off and nothing is recorded.
    let retention: Duration?
    /// Names the authenticator of passkey events.
    let names: AuthenticatorNaming
    let logger: Logger
    /// The endpoints each event is sent to, by type (a delivery is queued with the event).
    var webhooks: [WebhookEndpoint] = []

    /// Where the current request came from, set for each request by ``RequestObservationMiddleware`` (and by the admin API,
    /// with the admin key as the actor).
    @TaskLocal static var source: AuditSource?

    /// Whether events are recorded.
    var isOn: Bool { retention != nil }

    /// An event of `type` for `user`, from the current request's client, now.
    func event(
        _ type: AuditEventType, user: UUID?, authenticator: String? = nil, detail: String? = nil, now: Date = Date()
    ) -> AuditEvent {
        let source = Self.source
        var event = AuditEvent(
            type: type.rawValue, occurredAt: now, userID: user, actor: source?.actor.map { Self.clipped($0) },
            ip: source?.ip, userAgent: source?.userAgent, authenticator: authenticator.map { Self.clipped($0) },
            detail: detail.map { Self.clipped($0) })
        if !webhooks.isEmpty { event.notify = webhooks.filter { $0.wants(type.rawValue) }.map(\.name) }
        return event
    }

    /// An event of `type` about `credential`, with its authenticator's name (or its AAGUID when unnamed) and its ID.
    func event(_ type: AuditEventType, credential: StoredCredential, detail: String? = nil, now: Date = Date()) async
        -> AuditEvent
    {
        let authenticator =
            AAGUID(credential.aaguid).isZero
            ? nil : await names.name(for: credential.aaguid) ?? credential.aaguid.uuidString.lowercased()
        return event(
            type, user: credential.userID, authenticator: authenticator,
            detail: detail ?? Base64URL.encode(Array(credential.id)), now: now)
    }

    /// The events of a change to the passkey `id` of `userID`, read from `store` for its authenticator's name: none
    /// while the log is off, or when the account has no such passkey (the change then fails and records nothing).
    /// `detail` follows the credential ID.
    func events(
        _ type: AuditEventType, passkey id: Data, of userID: UUID, in store: any LatchkeyStore, detail: String? = nil
    ) async -> [AuditEvent] {
        guard isOn, let credential = try? await store.credential(id: id), credential.userID == userID else { return [] }
        return [
            await event(type, credential: credential, detail: detail.map { Base64URL.encode(Array(id)) + " " + $0 })
        ]
    }

    /// Runs `change`, one store call, with `events` written in its transaction (none while the log is off).
    @discardableResult
    func recording<T: Sendable>(
        _ events: @autoclosure () -> [AuditEvent], _ change: () async throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        guard retention != nil else { return try await change() }
        return try await AuditTrail.recording(events(), in: store, change)
    }

    /// Writes `event` on its own, for what changes nothing (a refused sign-in). A failure to write it is logged, not
    /// thrown: the answer to the request does not depend on it.
    func record(_ event: @autoclosure () -> AuditEvent) async {
        guard retention != nil else { return }
        let event = event()
        do {
            try await store.recordAuditEvents([event])
        } catch {
            logger.warning(
                "an audit event was not recorded", metadata: ["event": "\(event.type)", "error.code": "\(error.code)"])
        }
    }

    /// `text` cut to what an event keeps (and without NUL, which no event keeps).
    static func clipped(_ text: String) -> String {
        // In the UTF-8 bytes: `String.contains` searches through Foundation (locale-aware), half a percent of a login.
        let text = text.utf8.contains(0) ? String(text.unicodeScalars.filter { $0 != "\u{0}" }) : text
        guard text.utf8.count > AuditEvent.maximumTextLength else { return text }
        var clipped = Substring(text)
        while clipped.utf8.count > AuditEvent.maximumTextLength { clipped = clipped.dropLast() }
        return String(clipped)
    }
}

/// Where a request came from, for the audit events it causes: read from the request only when an event is made, so a
/// request that records nothing pays for nothing but keeping it.
struct AuditSource: Sendable {
    private let request: Request
    private let peer: SocketAddress?
    private let clients: ClientAddressResolver
    /// Who acts when not the user: `admin:<key name>`.
    let actor: String?

    init(_ request: Request, peer: SocketAddress?, clients: ClientAddressResolver, actor: String? = nil) {
        self.request = request
        self.peer = peer
        self.clients = clients
        self.actor = actor
    }

    /// The client's address (behind trusted proxies only, as for rate limits).
    var ip: String { clients.clientAddress(of: request, peer: peer) }
    /// The client's user agent, cut to what an event keeps.
    var userAgent: String? { request.headers[.userAgent].map { AuditLog.clipped($0) } }
}
