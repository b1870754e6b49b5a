import Foundation

/// One endpoint that receives audit events as webhooks (`--webhooks-file`): its name (how deliveries and the admin API
/// name it), its URL, the secret its deliveries are signed with, and the event types it wants (all when none are
/// listed).
///
/// The file is a JSON array:
/// `[{"name": "billing", "url": "https://hooks.example.com/latchkey", "secret": "whsec_…", "events": ["passkey.added"]}]`.
/// A secret is `whsec_` and base64 of 24 to 64 random bytes (`echo whsec_$(openssl rand -base64 32)`), as Standard
/// Webhooks writes them; a URL is https, or http on loopback.
public struct WebhookEndpoint: Sendable, Hashable {
    public let name: String
    public let url: URL
    /// The key of the signatures.
    let secret: [UInt8]
    /// The event types sent; nil for every type.
    public let events: Set<String>?

    /// Whether events of `type` go to this endpoint.
    func wants(_ type: String) -> Bool { events?.contains(type) ?? true }

    private struct Entry: Decodable {
        var name: String
        var url: String
        var secret: String
        var events: [String]?
    }

    /// The endpoints in the file at `path`; none without a path.
    static func load(_ path: String?) throws(ConfigurationError) -> [WebhookEndpoint] {
        guard let path else { return [] }
        func invalid(_ message: String) -> ConfigurationError { ConfigurationError("--webhooks-file", message) }
        guard let data = FileManager.default.contents(atPath: path) else { throw invalid("cannot read \(path)") }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: data)
        } catch {
            throw invalid("expected a JSON array of {name, url, secret, events?}: \(error)")
        }
        let known = Set(AuditEventType.allCases.map(\.rawValue))
        var endpoints: [WebhookEndpoint] = []
        for entry in entries {
            guard (1...32).contains(entry.name.count),
                entry.name.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
            else { throw invalid("a name is 1 to 32 of a-z, 0-9 and -: '\(entry.name)'") }
            guard !endpoints.contains(where: { $0.name == entry.name }) else {
                throw invalid("two endpoints are named '\(entry.name)'")
            }
            guard let url = URL(string: entry.url), let host = url.host, !host.isEmpty,
                url.scheme == "https" || (url.scheme == "http" && ["localhost", "127.0.0.1", "::1"].contains(host))
            else { throw invalid("\(entry.name): the url must be https (http only on loopback): '\(entry.url)'") }
            guard entry.secret.hasPrefix("whsec_"), let secret = Data(base64Encoded: String(entry.secret.dropFirst(6))),
                (24...64).contains(secret.count)
            else {
                throw invalid(
                    "\(entry.name): the secret is whsec_ and base64 of 24 to 64 bytes (openssl rand -base64 32)")
            }
            if let unknown = entry.events?.first(where: { !known.contains($0) }) {
                throw invalid("\(entry.name): '\(unknown)' is not an event type (docs/SERVER.md lists them)")
            }
            endpoints.append(
                WebhookEndpoint(
                    name: entry.name, url: url, secret: Array(secret), events: entry.events.map(Set.init)))
        }
        return endpoints
    }
}
