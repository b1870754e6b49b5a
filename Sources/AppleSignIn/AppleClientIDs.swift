/// An iOS/macOS app's bundle ID, the client ID of codes that come from the app (AuthenticationServices).
public struct AppleBundleID: Hashable, Sendable, CustomStringConvertible {
    /// The bundle identifier, e.g. `com.example.app`.
    public let rawValue: String
    /// Wraps a bundle ID.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The bundle ID as written.
    public var description: String { rawValue }
}

/// A Services ID, the client ID of codes that come from the web flow (Sign in with Apple JS or a redirect).
public struct AppleServicesID: Hashable, Sendable, CustomStringConvertible {
    /// The Services ID, e.g. `com.example.web`.
    public let rawValue: String
    /// Wraps a Services ID.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The Services ID as written.
    public var description: String { rawValue }
}

/// The client a token or code belongs to: an app (bundle ID) or a website (Services ID).
public enum AppleClientID: Hashable, Sendable, CustomStringConvertible {
    /// An app's bundle ID.
    case app(AppleBundleID)
    /// A website's Services ID.
    case web(AppleServicesID)

    /// The string Apple knows the client by (`client_id`, `aud`, the client secret's `sub`).
    public var rawValue: String {
        switch self {
        case .app(let id): id.rawValue
        case .web(let id): id.rawValue
        }
    }

    /// The client ID as written.
    public var description: String { rawValue }
}

/// An authorization code from an app (`ASAuthorizationAppleIDCredential.authorizationCode`).
/// Exchanged with the bundle ID as `client_id` and no `redirect_uri`.
public struct AppAuthorizationCode: Sendable, CustomStringConvertible {
    /// The one-time code (valid five minutes).
    public let code: String
    /// The app the code was issued to.
    public let bundleID: AppleBundleID

    /// Pairs a code with the app it was issued to.
    public init(code: String, bundleID: AppleBundleID) {
        self.code = code
        self.bundleID = bundleID
    }

    /// The bundle ID, with the code itself redacted.
    public var description: String { "AppAuthorizationCode(bundleID: \(bundleID), code: <redacted>)" }
}

/// An authorization code from the web flow. Exchanged with the Services ID as `client_id` and the same
/// `redirect_uri` the authorization request used.
public struct WebAuthorizationCode: Sendable, CustomStringConvertible {
    /// The one-time code (valid five minutes).
    public let code: String
    /// The Services ID the code was issued to.
    public let servicesID: AppleServicesID
    /// The redirect URI of the authorization request.
    public let redirectURI: String

    /// Pairs a code with the Services ID and redirect URI it was issued for.
    public init(code: String, servicesID: AppleServicesID, redirectURI: String) {
        self.code = code
        self.servicesID = servicesID
        self.redirectURI = redirectURI
    }

    /// The Services ID and redirect URI, with the code itself redacted.
    public var description: String {
        "WebAuthorizationCode(servicesID: \(servicesID), redirectURI: \(redirectURI), code: <redacted>)"
    }
}
