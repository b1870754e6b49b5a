import AppleSignIn
import Foundation
import LatchkeyStore
import Logging

/// Acts on Apple's server-to-server notifications, once per `jti`.
///
/// `consent-revoked` ends the user's sessions and forgets the refresh token but keeps the link, so the same Apple ID
/// signing in again returns to its account; `account-delete` / `account-deleted` remove the link, end the sessions
/// and delete a user left with no other way to sign in; `email-disabled` / `email-enabled` record whether Apple
/// relays mail. Every action is idempotent, a notification about an Apple ID that is not linked changes nothing,
/// and a `jti` already handled is acknowledged without acting again.
struct AppleNotificationHandler: Sendable {
    let store: any AppleLinkStore
    let audit: AuditLog
    let logger: Logger

    /// How long a handled `jti` is remembered: well past Apple's retry window.
    static let rememberFor: TimeInterval = 7 * 24 * 3600

    /// Acts on `notification` unless its `jti` was already handled.
    func handle(_ notification: AppleNotification, now: Date = Date()) async throws {
        if let id = notification.id, try await store.appleNotificationSeen(id: id) { return }
        let event = notification.event
        // Recorded with the change it makes, as Apple's doing, for the account the Apple ID is linked to.
        var recorded: [AuditEvent] = []
        if audit.isOn, let userID = try await store.appleLink(subject: event.subject)?.userID {
            var record = audit.event(.appleNotification, user: userID, detail: event.kind.rawValue, now: now)
            record.actor = "apple"
            recorded.append(record)
        }
        switch event.kind {
        case .consentRevoked:
            let ended = try await audit.recording(recorded) { () async throws(StoreError) in
                try await store.revokeAppleConsent(subject: event.subject, now: now)
            }
            logger.info(
                "Apple notification revoked a link's consent",
                metadata: [
                    "apple.event": "\(event.kind.rawValue)", "linked": "\(ended != nil)",
                    "sessions.ended": "\(ended ?? 0)",
                ])
        case .accountDelete, .accountDeleted:
            let ended = try await audit.recording(recorded) { () async throws(StoreError) in
                try await store.endAppleLink(subject: event.subject, deletingUserWithoutOtherWayIn: true)
            }
            logger.info(
                "Apple notification ended a link",
                metadata: [
                    "apple.event": "\(event.kind.rawValue)", "linked": "\(ended != nil)",
                    "user.deleted": "\(ended?.deletedUser ?? false)",
                ])
        case .emailDisabled, .emailEnabled:
            _ = try await audit.recording(recorded) { () async throws(StoreError) in
                try await store.setAppleEmailEnabled(subject: event.subject, enabled: event.kind == .emailEnabled)
            }
        }
        if let id = notification.id {
            try await store.recordAppleNotification(id: id, expiresAt: now.addingTimeInterval(Self.rememberFor))
        }
    }
}
