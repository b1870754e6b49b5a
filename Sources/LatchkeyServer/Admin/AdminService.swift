import Foundation
import LatchkeyAPI
import LatchkeyStore
import Logging
import WebAuthn

/// What an operator does to accounts, through the admin API: find a user (by name, verified email, credential ID or
/// Apple ID), show one, delete one, remove a passkey, end every session, issue a recovery link, read the audit log.
/// Each change is logged at notice level and recorded in the audit log, with the admin key's name.
struct AdminService: Sendable {
    let store: any LatchkeyStore
    let accounts: AccountService
    var audit: AuditLog { accounts.audit }
    let names: AuthenticatorNaming
    /// The server's web origins: a recovery link opens one of them.
    let origins: [String]
    /// The endpoints of `--webhooks-file`.
    var webhookEndpoints: [WebhookEndpoint] = []
    let logger: Logger

    /// The users matching the one criterion given.
    func find(name: String?, email: String?, credentialID: String?, appleID: String?) async throws -> AdminUserList {
        let user: StoredUser?
        switch (name, email, credentialID, appleID) {
        case (let name?, nil, nil, nil):
            user = try await store.user(named: UsernameProfile.prepared(name))
        case (nil, let email?, nil, nil):
            user = try await store.userID(verifiedEmail: email).asyncMap { try await store.user(id: $0) } ?? nil
        case (nil, nil, let id?, nil):
            guard let bytes = Base64URL.decode(id), !bytes.isEmpty else {
                throw ServiceError(.adminInvalidQuery, "credentialId must be base64url")
            }
            user = try await store.account(ofCredential: Data(bytes))?.user
        case (nil, nil, nil, let subject?):
            user = try await store.appleLink(subject: subject).asyncMap { try await store.user(id: $0.userID) } ?? nil
        default:
            throw ServiceError(.adminInvalidQuery, "give exactly one of name, email, credentialId, appleId")
        }
        return AdminUserList(users: user.map { [Self.summary($0)] } ?? [])
    }

    /// The user with passkeys, sessions, addresses and ways in.
    func show(_ id: String, now: Date = Date()) async throws -> AdminUserDetail {
        let user = try await user(id)
        let passkeys = await names.summaries(of: try await store.credentials(ofUser: user.id))
        let sessions = try await store.sessions(ofUser: user.id, now: now).map {
            AccountService.summary($0, current: false)
        }
        return AdminUserDetail(
            user: Self.summary(user), signInMethods: try await accounts.signInMethods(of: user.id), passkeys: passkeys,
            sessions: sessions, emails: try await store.emails(ofUser: user.id).map(EmailService.summary))
    }

    /// Deletes the user (revoking Apple authorizations first, as the user's own deletion does).
    func delete(_ id: String, by key: String) async throws {
        let user = try await user(id)
        try await accounts.delete(userID: user.id)
        logger.notice("admin deleted a user", metadata: ["admin": "\(key)", "user": "\(user.id)"])
    }

    /// Removes one of the user's passkeys; the last way in only with `force`.
    func removePasskey(_ credentialID: String, of id: String, force: Bool, by key: String) async throws {
        let user = try await user(id)
        guard let bytes = Base64URL.decode(credentialID), !bytes.isEmpty else { throw PasskeyService.notFound }
        let events = await audit.events(.passkeyRemoved, passkey: Data(bytes), of: user.id, in: store)
        do throws(StoreError) {
            try await audit.recording(events) { () async throws(StoreError) in
                try await store.deleteCredential(id: Data(bytes), ofUser: user.id, keepingAnotherWayIn: !force)
            }
        } catch {
            throw error.meaning([
                .notFound: ServiceError(.passkeyNotFound, "the user has no such passkey"),
                .conflict: ServiceError(
                    .passkeyLastCredential,
                    "this is the user's last way in: add ?force=true to remove it anyway, or issue a recovery link"),
            ])
        }
        logger.notice(
            "admin removed a passkey",
            metadata: ["admin": "\(key)", "user": "\(user.id)", "passkey": "\(credentialID)"])
    }

    /// Ends every session of the user.
    func endSessions(of id: String, by key: String) async throws -> AdminEndedSessions {
        let user = try await user(id)
        let ended = try await accounts.endSessions(of: user.id)
        logger.notice("admin ended sessions", metadata: ["admin": "\(key)", "user": "\(user.id)", "ended": "\(ended)"])
        return AdminEndedSessions(ended: ended)
    }

    /// A recovery link for the user, on one of the server's origins.
    func recoveryLink(for id: String, _ request: AdminRecoveryLinkRequest?, by key: String) async throws
        -> AdminRecoveryLink
    {
        let user = try await user(id)
        let origin = request?.origin ?? origins[0]
        guard origins.contains(origin) else {
            throw ServiceError(.adminInvalidQuery, "origin must be one of the server's origins: \(origins)")
        }
        let seconds = request?.lifetime ?? Int(RecoveryLinks.defaultLifetime.components.seconds)
        guard (60...7 * 86_400).contains(seconds) else {
            throw ServiceError(.adminInvalidQuery, "lifetime is 60 seconds to a week")
        }
        let issued = try await audit.recording([audit.event(.recoveryLinkIssued, user: user.id)]) {
            () async throws(StoreError) in
            try await RecoveryLinks.issue(for: user, origin: origin, lifetime: .seconds(seconds), in: store)
        }
        logger.notice("admin issued a recovery link", metadata: ["admin": "\(key)", "user": "\(user.id)"])
        return AdminRecoveryLink(token: issued.token, url: issued.url, expiresAt: issued.expiresAt)
    }

    /// Audit events, newest first: of one user (`user`, an id), within a time (`since`, `until`: ISO 8601), before a
    /// place in the log (`before`, the previous page's `next`); `limit` 1 to 1000 (100 by default). 400
    /// `admin.invalidQuery` for a value that is none of these.
    func auditEvents(user: String?, since: String?, until: String?, before: String?, limit: String?) async throws
        -> AdminAuditEventList
    {
        func invalid(_ message: String) -> ServiceError { ServiceError(.adminInvalidQuery, message) }
        func date(_ text: String?, _ name: String) throws -> Date? {
            guard let text else { return nil }
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw invalid("\(name) must be an ISO 8601 time such as 2026-11-27T12:00:00Z")
            }
            return date
        }
        var query = AuditQuery()
        if let user {
            guard let id = UUID(uuidString: user) else { throw invalid("user must be a user id") }
            query.userID = id
        }
        query.since = try date(since, "since")
        query.until = try date(until, "until")
        if let before {
            guard let value = Int64(before), value > 0 else { throw invalid("before must be a positive integer") }
            query.before = value
        }
        if let limit {
            guard let value = Int(limit), (1...AuditQuery.maximumLimit).contains(value) else {
                throw invalid("limit must be 1 to \(AuditQuery.maximumLimit)")
            }
            query.limit = value
        }
        let events = try await store.auditEvents(query)
        return AdminAuditEventList(
            events: events.map(Self.summary), next: events.count == query.limit ? events.last?.sequence : nil)
    }

    /// The webhook endpoints with their deliveries counted.
    func webhooks() async throws -> AdminWebhookList {
        let status = try await store.webhookStatus()
        return AdminWebhookList(
            endpoints: webhookEndpoints.map { endpoint in
                let counts = status.first { $0.endpoint == endpoint.name }
                return AdminWebhookEndpoint(
                    name: endpoint.name, url: endpoint.url.absoluteString, events: endpoint.events.map { $0.sorted() },
                    pending: counts?.pending ?? 0, delivered: counts?.delivered ?? 0, failed: counts?.failed ?? 0,
                    lastAttemptAt: counts?.lastAttemptAt, lastError: counts?.lastError)
            })
    }

    /// An event as the admin API and webhooks show it.
    static func summary(_ stored: StoredAuditEvent) -> AdminAuditEvent {
        let event = stored.event
        return AdminAuditEvent(
            sequence: stored.sequence, type: event.type, occurredAt: event.occurredAt,
            userId: event.userID?.uuidString.lowercased(), actor: event.actor, ip: event.ip, userAgent: event.userAgent,
            authenticator: event.authenticator, detail: event.detail)
    }

    private func user(_ id: String) async throws -> StoredUser {
        guard let uuid = UUID(uuidString: id), let user = try await store.user(id: uuid) else {
            throw ServiceError(.adminUserNotFound, "no user has this id")
        }
        return user
    }

    static func summary(_ user: StoredUser) -> AdminUserSummary {
        AdminUserSummary(
            id: user.id.uuidString.lowercased(), name: user.name, displayName: user.displayName,
            createdAt: user.createdAt)
    }
}

extension Optional {
    /// The wrapped value transformed by an async function, or nil.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
