import Foundation
import LatchkeyStore
import Logging
import ServiceLifecycle

/// Sends the notices waiting in the store's outbox, as a service of the server: every ``pollInterval`` it claims the
/// messages due (``LatchkeyStore/EmailStore/claimMail(now:lease:limit:)``; on PostgreSQL several instances claim
/// different ones), hands each to the transport, and deletes it once sent. A temporary failure tries again after 30 s,
/// doubling to an hour; a message is given up (and logged, without its text) after a permanent failure or a day.
/// The queue holds at most ``capacity`` messages and lives in the database, so a restart loses none.
struct MailOutbox: Service {
    let store: any LatchkeyStore
    let transport: any MailTransport
    let from: String
    let logger: Logger
    var pollInterval: Duration = .seconds(1)

    static let capacity = 10_000
    /// How long a message is tried before it is given up.
    static let lifetime: TimeInterval = 86_400
    /// Messages taken per round.
    static let batch = 20

    func run() async throws {
        // The lease: a claimed message is not claimed again while one attempt could still be under way.
        let lease: TimeInterval = 300
        await repeatedly(every: pollInterval) {
            do {
                let now = Date()
                let due = try await store.claimMail(now: now, lease: lease, limit: Self.batch)
                for mail in due { await deliver(mail, now: now) }
            } catch {
                logger.warning("the email outbox cannot be read", metadata: ["error": "\(error)"])
            }
        }
    }

    private func deliver(_ mail: StoredMail, now: Date) async {
        let metadata: Logger.Metadata = ["mail": "\(mail.id)", "attempt": "\(mail.attempts)"]
        do {
            let message = try MailMessage(from: from, to: mail.recipient, subject: mail.subject, text: mail.body)
            try await transport.send(message)
            try? await store.deleteMail(id: mail.id)
        } catch let error as MailDeliveryError
            where error.isTemporary
            && now.timeIntervalSince(mail.createdAt) < Self.lifetime
        {
            let delay = min(30 * pow(2, Double(max(0, mail.attempts - 1))), 3600)
            logger.info(
                "email delivery failed; trying again",
                metadata: metadata.merging(["error": "\(error)", "in": "\(Int(delay)) s"]) { $1 })
            try? await store.rescheduleMail(id: mail.id, at: now.addingTimeInterval(delay))
        } catch {
            logger.error("email given up", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            try? await store.deleteMail(id: mail.id)
        }
    }
}
