import Foundation
import LatchkeyStore
import Logging
import ServiceLifecycle

/// Deletes spent tickets and sessions once they expire, and audit events past their retention, now and then, so they
/// do not pile up.
///
/// A spent ticket is kept ``spentTicketGrace`` past its expiry: instances whose clocks run behind this one's still
/// take the ticket for unexpired that long, and must still find it spent. Safe to run on
/// every instance sharing one database.
struct ExpiryPurgeService: Service {
    let store: any LatchkeyStore
    let interval: Duration
    let logger: Logger
    /// How long password failure counts are remembered.
    var passwordThrottleMemory: Duration = .seconds(86_400)
    /// How long audit events are kept; nil: no audit log.
    var auditRetention: Duration? = nil

    /// How long a spent ticket is kept after it expires.
    static let spentTicketGrace: TimeInterval = 600

    func run() async throws {
        await repeatedly(every: interval) {
            do throws(StoreError) {
                try await purge(now: Date())
            } catch {
                logger.warning("purging expired records failed", metadata: ["error.code": "\(error.code)"])
            }
        }
    }

    /// One pass: deletes what has expired by `now` (spent tickets ``spentTicketGrace`` later).
    func purge(now: Date) async throws(StoreError) {
        func ago(_ duration: Duration) -> Date { now.addingTimeInterval(-TimeInterval(duration.components.seconds)) }
        let tickets = try await store.purgeSpentTickets(now: now.addingTimeInterval(-Self.spentTicketGrace))
        let sessions = try await store.purgeExpiredSessions(now: now)
        let apple = try await store.purgeExpiredAppleRecords(now: now)
        try await store.purgeExpiredRecoveryLinks(now: now)
        try await store.purgePasswordThrottles(lastFailureBefore: ago(passwordThrottleMemory))
        if let auditRetention {
            try await store.purgeAuditEvents(occurredBefore: ago(auditRetention))
        }
        logger.debug(
            "purged expired records",
            metadata: ["spentTickets": "\(tickets)", "sessions": "\(sessions)", "apple": "\(apple)"])
    }
}
