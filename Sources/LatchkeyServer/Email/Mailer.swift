import Foundation
import LatchkeyStore
import Logging

/// Everything the server sends by email. One-time codes go straight from memory (tried now, after 5 s and after 20 s),
/// so no code reaches the disk in clear; notices go through the outbox (``MailOutbox``), which outlives a restart.
/// Neither makes a request wait or fail: the work runs in the background and failures are logged.
struct Mailer: Sendable {
    let transport: any MailTransport
    let store: any LatchkeyStore
    /// The sender address (`--email-from`).
    let from: String
    let rpName: String
    let templates: EmailTemplates
    let logger: Logger

    /// Sends a code message to `address` in the background.
    func sendCode(_ name: EmailTemplates.Name, code: String, minutes: Int, to address: String) {
        let (subject, text) = templates.render(name, rpName: rpName, code: code, minutes: minutes)
        let message: MailMessage
        do {
            message = try MailMessage(from: from, to: address, subject: subject, text: text)
        } catch {
            logger.error("a code message cannot be made", metadata: ["error": "\(error)"])
            return
        }
        Task { [transport, logger] in
            for (attempt, pause) in [0, 5, 20].enumerated() {
                if pause > 0 { try? await Task.sleep(for: .seconds(pause)) }
                do {
                    try await transport.send(message)
                    return
                } catch {
                    logger.warning(
                        "a code message was not sent", metadata: ["attempt": "\(attempt + 1)", "error": "\(error)"])
                    guard (error as? MailDeliveryError)?.isTemporary ?? true else { return }
                }
            }
        }
    }

    /// Queues notice `name` for the user's primary verified address, and for `alsoTo` (an address just removed, told
    /// too), in the background.
    func notify(_ name: EmailTemplates.Name, detail: String = "", user userID: UUID, alsoTo: [String] = []) {
        let (subject, text) = templates.render(name, rpName: rpName, detail: detail)
        Task { [store, logger] in
            do {
                let primary = try await store.emails(ofUser: userID).filter { $0.isPrimary && $0.verifiedAt != nil }
                for recipient in primary.map(\.address) + alsoTo {
                    let mail = StoredMail(recipient: recipient, subject: subject, body: text, createdAt: Date())
                    if try await !store.enqueueMail(mail, limit: MailOutbox.capacity) {
                        logger.error("the email outbox is full; a notice was dropped", metadata: ["notice": "\(name)"])
                    }
                }
            } catch {
                logger.error("a notice was not queued", metadata: ["notice": "\(name)", "error": "\(error)"])
            }
        }
    }
}
