import Hummingbird
import LatchkeyStore

/// What a new session records about the client that made it, for the account's list of devices
/// (`GET /v1/sessions`): a label from its user agent and its network, coarsened so that no full address is kept.
struct SessionClient: Sendable, Equatable {
    /// "Safari on iPhone", "Chrome on Windows", an app's name; nil when the user agent says nothing recognisable.
    var device: String?
    /// The client's IPv4 /24 or IPv6 /48 (`203.0.113.0/24`, `2001:db8:1::/48`); nil without a peer address.
    var network: String?

    init(device: String? = nil, network: String? = nil) {
        self.device = device
        self.network = network
    }

    /// The client of `request`, its address found as for rate limits (behind trusted proxies only).
    init(_ request: Request, context: ServerRequestContext, clients: ClientAddressResolver) {
        self.init(
            device: request.headers[.userAgent].flatMap(Self.deviceLabel(userAgent:)),
            network: clients.network(of: request, peer: context.remoteAddress))
    }

    /// Browsers by the products that name them, in the order they are told apart: Edge's user agent says `Chrome/`
    /// too, and Chrome's says `Safari/` (Safari itself is told by `Safari/` with `Version/`).
    private static let browsers: [(name: String, marks: [String])] = [
        ("Edge", ["Edg/", "EdgA/", "EdgiOS/"]), ("Firefox", ["Firefox/", "FxiOS/"]),
        ("Chrome", ["Chrome/", "CriOS/", "Chromium/"]),
    ]
    /// Systems by the words that name them, in the order they are told apart (an iPhone's user agent says `Mac OS X`).
    private static let systems: [(name: String, marks: [String])] = [
        ("iPhone", ["iPhone"]), ("iPad", ["iPad"]), ("Android", ["Android"]), ("ChromeOS", ["CrOS"]),
        ("macOS", ["Macintosh", "Mac OS X"]), ("Windows", ["Windows"]), ("Linux", ["Linux"]),
    ]

    /// A short label for a user agent: the browser and the system for a browser, the first product's name for an app
    /// (URLSession sends `AppName/1.0 CFNetwork/… Darwin/…`), nil for anything else. Never longer than
    /// ``StoredSession/maximumDeviceLength``, printable ASCII only.
    static func deviceLabel(userAgent: String) -> String? {
        let browser =
            browsers.first { $0.marks.contains { userAgent.contains($0) } }?.name
            ?? (userAgent.contains("Safari/") && userAgent.contains("Version/") ? "Safari" : nil)
        let system = systems.first { $0.marks.contains { userAgent.contains($0) } }?.name
        if let browser { return system.map { "\(browser) on \($0)" } ?? browser }
        // An app: the name of its first product, when that is a plain word.
        let product = userAgent.prefix { $0 != "/" && $0 != " " }.prefix(60)
        guard !product.isEmpty, product != "Mozilla", ASCIIText.consists(of: product, orAnyOf: "-_.") else {
            return system
        }
        return system.map { "\(product) on \($0)" } ?? String(product)
    }
}
