import Foundation

/// Where the server sends email, from `--smtp-url`:
///
/// - `smtp://user:password@host:587` — SMTP submission upgraded with STARTTLS, which must succeed (a server that does
///   not offer it is refused), the certificate checked against the system's roots, then AUTH PLAIN or LOGIN;
/// - `smtps://user:password@host:465` — the same over TLS from the first byte;
/// - `?ca=/path/ca.pem` — trust this CA (a private one) instead of the system's roots;
/// - `?tls=none` — no TLS, for a relay on the loopback interface only (refused for any other host);
/// - `?timeout=30` — seconds one message may take, connection included (default 30);
/// - `log:` — no SMTP: messages are written to the log (development; the log then holds the codes).
///
/// The user name and password are percent-decoded, so a password may hold any character.
enum SMTPConfiguration: Sendable, Hashable {
    case log
    case smtp(Server)

    struct Server: Sendable, Hashable {
        enum Security: Sendable, Hashable {
            case startTLS, implicitTLS, none
        }
        let host: String
        let port: Int
        let security: Security
        let username: String?
        let password: String?
        /// A PEM file of the CA to trust instead of the system's roots.
        let trustedCA: String?
        let timeout: Duration
    }

    /// Reads a `--smtp-url`; throws ``ConfigurationError`` naming what is wrong.
    init(url text: String) throws(ConfigurationError) {
        func refuse(_ reason: String) -> ConfigurationError { ConfigurationError("--smtp-url", reason) }
        if text == "log:" {
            self = .log
            return
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps"
        else {
            throw refuse("use smtp://user:password@host:587, smtps://user:password@host:465 or log:")
        }
        guard let host = components.host, !host.isEmpty else { throw refuse("the URL has no host") }
        var security: Server.Security = scheme == "smtps" ? .implicitTLS : .startTLS
        var trustedCA: String?
        var timeout = 30
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("ca", let path?) where !path.isEmpty:
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw refuse("cannot read the CA \(path)")
                }
                trustedCA = path
            case ("tls", "none"):
                guard Self.isLoopback(host) else {
                    throw refuse("tls=none is for a relay on the loopback interface only, not \(host)")
                }
                security = .none
            case ("timeout", let value?):
                guard let seconds = Int(value), (1...600).contains(seconds) else {
                    throw refuse("timeout is whole seconds from 1 to 600")
                }
                timeout = seconds
            default:
                throw refuse("unknown parameter '\(item.name)' (known: ca, tls=none, timeout)")
            }
        }
        let port = components.port ?? (scheme == "smtps" ? 465 : 587)
        guard (1...65535).contains(port) else { throw refuse("the port is out of range") }
        let username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        let password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        guard (username == nil) == (password == nil) else {
            throw refuse("give both a user name and a password, or neither")
        }
        self = .smtp(
            Server(
                host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port, security: security,
                username: username, password: password, trustedCA: trustedCA, timeout: .seconds(timeout)))
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}
