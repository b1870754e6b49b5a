import Logging

/// Where messages go: an SMTP submission server (``SMTPTransport``) or, for development, the log
/// (``LogMailTransport``).
protocol MailTransport: Sendable {
    /// Hands one message over for delivery. Throws ``MailDeliveryError``: temporary when trying later may work.
    func send(_ message: MailMessage) async throws(MailDeliveryError)
}

/// Why a message was not handed over.
struct MailDeliveryError: Error, Hashable, CustomStringConvertible {
    /// Whether another attempt later may succeed (a connection failure, a timeout, an SMTP 4xx), or not (an SMTP 5xx:
    /// the address or the message is refused).
    let isTemporary: Bool
    let description: String

    static func temporary(_ description: String) -> MailDeliveryError {
        MailDeliveryError(isTemporary: true, description: description)
    }

    static func permanent(_ description: String) -> MailDeliveryError {
        MailDeliveryError(isTemporary: false, description: description)
    }
}

/// `--smtp-url log:`: every message is written to the log, whole, at notice level, and nothing is sent. For
/// development only: the log then holds the one-time codes.
struct LogMailTransport: MailTransport {
    let logger: Logger

    func send(_ message: MailMessage) async throws(MailDeliveryError) {
        logger.notice(
            "email (not sent: --smtp-url log:)",
            metadata: [
                "to": .string(message.to), "subject": .string(message.subject), "text": .string(message.text),
            ])
    }
}
