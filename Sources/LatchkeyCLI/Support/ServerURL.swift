import Foundation

/// A `--server` value checked once: an http or https URL with a host, and the web origin a client at it claims.
struct ServerURL {
    let url: URL
    /// The lowercased host.
    let host: String
    /// `scheme://host[:port]`, lowercased.
    let origin: String

    /// Checks `text`; anything else is `usage.badServer`.
    init(_ text: String) throws(CommandError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else {
            throw .usage("badServer", "--server must be an http or https URL, not \"\(text)\"")
        }
        self.url = url
        self.host = host
        origin = url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// Whether a passkey for `rpID` can be used at this server: the host is the RP ID or one of its subdomains.
    func isOn(rpID: String) -> Bool {
        host == rpID || host.hasSuffix("." + rpID)
    }
}
