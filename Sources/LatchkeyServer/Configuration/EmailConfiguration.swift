/// Email (`--smtp-url`, `--email-from`, `--email-templates`): where messages go, who they are from, and their texts.
/// Without `--smtp-url` the server sends nothing and the email routes answer 404 `email.disabled`.
public struct EmailConfiguration: Sendable {
    /// The SMTP server, or the log (`log:`).
    let smtp: SMTPConfiguration
    /// The sender address: `--email-from`, by default `no-reply@<rp id>`.
    public let from: String
    let templates: EmailTemplates

    /// Nil when `settings` has no `smtpURL`; throws for a bad URL, sender or template directory.
    init?(_ settings: ServerSettings, rpID: String) throws(ConfigurationError) {
        guard let url = settings.smtpURL else {
            if settings.emailFrom != nil || settings.emailTemplates != nil {
                throw ConfigurationError(
                    settings.emailFrom != nil ? "--email-from" : "--email-templates", "needs --smtp-url")
            }
            return nil
        }
        smtp = try SMTPConfiguration(url: url)
        from = settings.emailFrom ?? "no-reply@\(rpID)"
        do {
            try MailAddress.check(from)
        } catch {
            throw ConfigurationError("--email-from", error.description)
        }
        templates = try EmailTemplates(directory: settings.emailTemplates)
    }

    /// The line `latchkey serve` prints on start when email is off.
    static let offLine =
        "Email: off (no --smtp-url): no verified addresses, recovery by email or notices; those routes answer 404 email.disabled"
}

extension EmailConfiguration: CustomStringConvertible {
    /// The line `latchkey serve` prints on start: where email goes (never the password).
    public var description: String {
        switch smtp {
        case .log:
            "Email: written to the log, not sent (--smtp-url log:; the log holds one-time codes: development only)"
        case .smtp(let server):
            "Email: from \(from) via \(server.host):\(server.port) (\(server.security == .implicitTLS ? "TLS" : server.security == .startTLS ? "STARTTLS" : "no TLS, loopback")\(server.username == nil ? "" : ", AUTH as \(server.username ?? "")"))"
        }
    }
}
