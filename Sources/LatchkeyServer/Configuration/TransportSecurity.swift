/// The one rule for the URLs and origins the server is configured with: https, or http only on this machine
/// (`localhost`, `*.localhost`, `127.0.0.1`, `::1`).
enum TransportSecurity {
    private static let localHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", "::1"]

    /// Throws unless `scheme` is https, or http on a local `host` (both lowercased).
    static func require(scheme: String, host: String, text: String, setting: String) throws(ConfigurationError) {
        let isLocal = localHosts.contains(host) || host.hasSuffix(".localhost")
        guard scheme == "https" || (scheme == "http" && isLocal) else {
            throw ConfigurationError(setting, "'\(text)' must use https (http is only for localhost)")
        }
    }
}
