/// Where Apple's Sign in with Apple endpoints live. Production uses ``production``; tests point ``baseURL``
/// at a local stand-in.
public struct AppleEndpoints: Sendable, Equatable {
    /// The issuer every Apple token carries, whatever the base URL: `https://appleid.apple.com`.
    public static let issuer = "https://appleid.apple.com"

    /// The base URL without a trailing slash, e.g. `https://appleid.apple.com`.
    public let baseURL: String

    /// Makes endpoints under `baseURL` (a trailing slash is dropped).
    public init(baseURL: String) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
    }

    /// Apple's production endpoints.
    public static let production = AppleEndpoints(baseURL: "https://appleid.apple.com")

    /// `GET`: the JWKS of Apple's token-signing keys.
    public var keys: String { baseURL + "/auth/keys" }
    /// `POST`: authorization-code exchange and refresh-token validation.
    public var token: String { baseURL + "/auth/token" }
    /// `POST`: token revocation.
    public var revoke: String { baseURL + "/auth/revoke" }
    /// The browser authorization page.
    public var authorize: String { baseURL + "/auth/authorize" }
}
