import Foundation

/// The frame a bridge message came from, as the web view reports it (`WKScriptMessage.frameInfo`), not as
/// the page claims it.
public struct BridgeFrame: Sendable, Hashable {
    /// Whether the message came from the top-level document.
    public var isMainFrame: Bool
    /// The security origin's scheme (`WKSecurityOrigin.protocol`): `https`, `http`, … (empty when opaque).
    public var scheme: String
    /// The security origin's host (empty when opaque).
    public var host: String
    /// The security origin's port (0 for the scheme's default).
    public var port: Int

    /// A frame as given (the WebKit handler fills it from `WKFrameInfo`).
    public init(isMainFrame: Bool, scheme: String, host: String, port: Int = 0) {
        self.isMainFrame = isMainFrame
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// A frame whose origin is given as text, `scheme://host[:port]`; anything else (`null`, a path-only
    /// string) is an opaque origin, which no policy allows.
    public init(isMainFrame: Bool, origin: String) {
        let components = URLComponents(string: origin)
        self.init(
            isMainFrame: isMainFrame, scheme: components?.scheme ?? "", host: components?.host ?? "",
            port: components?.port ?? 0
        )
    }

    /// `scheme://host[:port]`, for messages.
    public var origin: String {
        if scheme.isEmpty || host.isEmpty { return "null" }
        let host = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return port == 0 ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }
}

/// Which frames a bridge answers: by default only the main frame, and only a secure origin (`https`, or
/// `http` on this machine) whose host is one of ``allowedHosts`` or a subdomain of one. Pages from anywhere
/// else that end up in the web view (a link followed, an ad's iframe) get `notAllowed`.
public struct BridgeOriginPolicy: Sendable, Hashable {
    /// The hosts whose pages may use the bridge, with their subdomains: normally the relying party ID.
    public var allowedHosts: [String]
    /// Whether iframes (of an allowed origin) may use the bridge too.
    public var allowsSubframes: Bool

    /// A policy allowing pages on `allowedHosts`, in the main frame only unless `allowsSubframes`.
    public init(allowedHosts: [String], allowsSubframes: Bool = false) {
        self.allowedHosts = allowedHosts
        self.allowsSubframes = allowsSubframes
    }

    /// Hosts where plain `http` is accepted: this machine (as the server's origin rule has it).
    private static let localHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    /// Throws `notAllowed` unless the policy answers `frame`.
    public func check(_ frame: BridgeFrame) throws(AuthenticatorError) {
        guard frame.isMainFrame || allowsSubframes else {
            throw AuthenticatorError(
                .notAllowed, "the passkey bridge answers only the main frame, not an iframe of \(frame.origin)")
        }
        let scheme = frame.scheme.lowercased()
        var host = frame.host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        let isLocal = Self.localHosts.contains(host) || host.hasSuffix(".localhost")
        guard scheme == "https" || (scheme == "http" && isLocal) else {
            throw AuthenticatorError(
                .notAllowed, "the passkey bridge answers only https pages (http only on localhost), not \(frame.origin)"
            )
        }
        let allowed = allowedHosts.contains { allowedHost in
            let allowedHost = allowedHost.lowercased()
            return !allowedHost.isEmpty && (host == allowedHost || host.hasSuffix("." + allowedHost))
        }
        guard allowed else {
            throw AuthenticatorError(.notAllowed, "the passkey bridge does not answer pages from \(frame.origin)")
        }
    }
}
