import Foundation
import LatchkeyStore
import Logging
import ServiceLifecycle

/// Deletes spent tickets and sessions once they expire, now and then, so they do not pile up. Safe to run on
/// every instance sharing one database.
struct ExpiryPurgeService: Service {
    let store: any LatchkeyStore
    let interval: Duration
    let logger: Logger
    /// How long password failure counts are remembered.
    var passwordThrottleMemory: Duration = .seconds(86_400)

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // shutting down
            }
            let now = Date()
            do {
                let tickets = try await store.purgeSpentTickets(now: now)
                let sessions = try await store.purgeExpiredSessions(now: now)
                let apple = try await store.purgeExpiredAppleRecords(now: now)
                try await store.purgePasswordThrottles(lastFailureBefore: now.addingTimeInterval(-TimeInterval(passwordThrottleMemory.components.seconds)))
                try await store.purgeRequestCounts(before: now.addingTimeInterval(-AccountNameLimiter.window))
                logger.debug("purged expired records", metadata: ["spentTickets": "\(tickets)", "sessions": "\(sessions)", "apple": "\(apple)"])
            } catch {
                logger.warning("purging expired records failed", metadata: ["error.code": "\(error.code)"])
            }
        }
    }
}
