import Crypto
import Foundation
import LatchkeyStore
import WebAuthn

/// Recovery links an operator issues for a user who has lost every way in (`latchkey recovery-link`, and the admin API
/// to come): a single-use token of 32 random bytes, valid for `lifetime`, stored as its SHA-256. The user opens
/// `<origin>/#recover=<token>` (the token stays in the fragment, which browsers never send to a server or a
/// `Referer`); the page spends it at `POST /v1/recovery/options` (`{"token"}`), as a recovery code is spent, and the
/// user registers a new passkey.
public enum RecoveryLinks {
    /// A link: its token and URL, and when it stops working.
    public struct Issued: Sendable, Encodable {
        public let token: String
        public let url: String
        public let expiresAt: Date
    }

    /// Bytes in a token.
    static let tokenLength = 32
    /// The default lifetime: a day.
    public static let defaultLifetime: Duration = .seconds(86_400)

    /// Issues a link for the account named `username` on the page at `origin`. Throws the store's `StoreError`, with
    /// the code `notFound` when no account has the name.
    public static func issue(
        for username: String, origin: String, lifetime: Duration = defaultLifetime, in store: any LatchkeyStore,
        now: Date = Date()
    ) async throws(StoreError) -> Issued {
        guard let user = try await store.user(named: UsernameProfile.prepared(username)) else {
            throw StoreError(.notFound, "no account is named '\(username)'")
        }
        // Recorded in the audit log as the command line's doing.
        let event = AuditEvent(
            type: AuditEventType.recoveryLinkIssued.rawValue, occurredAt: now, userID: user.id, actor: "cli")
        return try await AuditTrail.recording([event], in: store) { () async throws(StoreError) in
            try await issue(for: user, origin: origin, lifetime: lifetime, in: store, now: now)
        }
    }

    /// Issues a link for `user` on the page at `origin`.
    static func issue(
        for user: StoredUser, origin: String, lifetime: Duration = defaultLifetime, in store: any LatchkeyStore,
        now: Date = Date()
    ) async throws(StoreError) -> Issued {
        let bytes = RelyingParty.generateChallenge(byteCount: tokenLength)
        let expiresAt = now.addingTimeInterval(TimeInterval(lifetime.components.seconds))
        try await store.insertRecoveryLink(
            tokenHash: Data(SHA256.hash(data: bytes)), ofUser: user.id, expiresAt: expiresAt)
        let token = Base64URL.encode(bytes)
        let base = origin.hasSuffix("/") ? String(origin.dropLast()) : origin
        return Issued(token: token, url: "\(base)/#recover=\(token)", expiresAt: expiresAt)
    }
}
