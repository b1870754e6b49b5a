import AppleSignIn
import Foundation
import WebAuthn

/// The validated Sign in with Apple configuration of a server (``ServerConfiguration/apple``).
///
/// Sign in with Apple is on when an app bundle ID (`--apple-client-id`) or a Services ID (`--apple-services-id`)
/// is given. It then needs the team ID, the key ID, the key's `.p8` file (to sign client secrets) and the secrets key
/// that seals Apple refresh tokens at rest; a Services ID needs its redirect URI. Anything missing or unreadable is a
/// ``ConfigurationError`` naming the setting.
public struct AppleConfiguration: Sendable, CustomStringConvertible {
    /// The developer team ID (`iss` of client secrets).
    public let teamID: String
    /// The apps' bundle IDs: the audiences of app identity tokens and the clients of app codes.
    public let bundleIDs: [AppleBundleID]
    /// The web flow's Services ID and return URL, when the web flow is on.
    public let web: Web?
    /// Where Apple's endpoints are.
    public let endpoints: AppleEndpoints
    /// Signs client secrets with the team's key.
    public let signer: AppleClientSecretSigner
    /// Seals refresh tokens at rest.
    public let secrets: SecretBox
    /// How old (by `iat`) an identity token may be when it signs in.
    public let tokenMaxAge: TimeInterval
    /// How long a nonce from `POST /v1/apple/nonce` may be used.
    public static let nonceLifetime: TimeInterval = 600
    /// How old an identity token may be, in seconds, by default (`--apple-token-max-age`).
    public static let defaultTokenMaxAge = 300

    /// The web flow's client.
    public struct Web: Sendable, Equatable {
        /// The Services ID (`client_id` of the authorize request and of web codes).
        public let servicesID: AppleServicesID
        /// The return URL registered with the Services ID (`…/v1/apple/callback`).
        public let redirectURI: String
    }

    /// Every client ID an identity token may be issued to.
    public var clientIDs: Set<String> {
        Set(bundleIDs.map(\.rawValue) + (web.map { [$0.servicesID.rawValue] } ?? []))
    }

    /// The line `latchkey serve` prints: team, apps, web flow and endpoints; never a key.
    public var description: String {
        "Sign in with Apple: on (team \(teamID), apps \(bundleIDs.map(\.rawValue).joined(separator: " ")), web \(web?.servicesID.rawValue ?? "off"), \(endpoints.baseURL))"
    }

    /// The line `latchkey serve` prints when Sign in with Apple is off.
    public static let offLine =
        "Sign in with Apple: off (set --apple-client-id or --apple-services-id, with --apple-team-id, --apple-key-id, --apple-private-key and --secrets-key, to enable)"

    /// The configuration `settings` ask for; nil when they name no Apple client. Throws ``ConfigurationError`` for a
    /// partial or invalid configuration.
    public init?(_ settings: ServerSettings) throws(ConfigurationError) {
        let bundleIDs = settings.appleClientIDs ?? []
        guard !bundleIDs.isEmpty || settings.appleServicesID != nil else {
            let stray = [
                ("--apple-team-id", settings.appleTeamID), ("--apple-key-id", settings.appleKeyID),
                ("--apple-private-key", settings.applePrivateKey), ("--apple-redirect-uri", settings.appleRedirectURI),
            ].first { $0.1 != nil }
            if let stray {
                throw ConfigurationError(
                    stray.0,
                    "Sign in with Apple needs --apple-client-id (an app's bundle ID) or --apple-services-id (the web flow)"
                )
            }
            return nil
        }
        self.bundleIDs = try bundleIDs.map { id throws(ConfigurationError) in
            AppleBundleID(try Self.identifier(id, "--apple-client-id"))
        }
        teamID = try Self.identifier(Self.required(settings.appleTeamID, "--apple-team-id"), "--apple-team-id")
        let keyID = try Self.identifier(Self.required(settings.appleKeyID, "--apple-key-id"), "--apple-key-id")
        let keyPath = try Self.required(settings.applePrivateKey, "--apple-private-key")
        let pem = try ServerConfiguration.readText(keyPath, for: "--apple-private-key")
        do {
            signer = try AppleClientSecretSigner(teamID: teamID, keyID: keyID, p8: pem)
        } catch {
            throw ConfigurationError(
                "--apple-private-key", "\(keyPath) is not a .p8 key (PEM PKCS#8 P-256) from Apple's developer portal")
        }
        secrets = try Self.secretsKey(
            settings, reason: "Sign in with Apple keeps refresh tokens encrypted and needs a key")
        tokenMaxAge = TimeInterval(
            try ServerConfiguration.bounded(
                settings.appleTokenMaxAge ?? Self.defaultTokenMaxAge, "--apple-token-max-age", 10...3600,
                unit: " seconds", bounds: "10 seconds to one hour"))
        endpoints = AppleEndpoints(
            baseURL: try Self.url(settings.appleBaseURL ?? AppleEndpoints.production.baseURL, "--apple-base-url"))

        switch (settings.appleServicesID, settings.appleRedirectURI) {
        case (let servicesID?, let redirectURI?):
            web = Web(
                servicesID: AppleServicesID(try Self.identifier(servicesID, "--apple-services-id")),
                redirectURI: try Self.url(redirectURI, "--apple-redirect-uri")
            )
        case (.some, nil):
            throw ConfigurationError(
                "--apple-redirect-uri",
                "the web flow (--apple-services-id) needs its return URL, e.g. https://example.com/v1/apple/callback")
        case (nil, .some):
            throw ConfigurationError(
                "--apple-services-id", "--apple-redirect-uri is for the web flow, which needs the Services ID")
        case (nil, nil):
            web = nil
        }
    }

    private static func required(_ value: String?, _ setting: String) throws(ConfigurationError) -> String {
        guard let value, !value.isEmpty else { throw ConfigurationError(setting, "Sign in with Apple needs it") }
        return value
    }

    /// A team, key, bundle or Services ID: 1 to 255 characters of letters, digits, `.`, `-` and `_`.
    private static func identifier(_ value: String, _ setting: String) throws(ConfigurationError) -> String {
        guard (1...255).contains(value.utf8.count), ASCIIText.consists(of: value, orAnyOf: ".-_") else {
            throw ConfigurationError(setting, "'\(value)' is not an identifier (letters, digits, '.', '-', '_')")
        }
        return value
    }

    /// An absolute https URL (http only on localhost), no fragment.
    private static func url(_ text: String, _ setting: String) throws(ConfigurationError) -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty, components.fragment == nil, components.user == nil
        else {
            throw ConfigurationError(setting, "'\(text)' is not an absolute URL")
        }
        try TransportSecurity.require(scheme: scheme, host: host, text: text, setting: setting)
        return text
    }

    /// The fewest different byte values a secrets key may have. 32 random bytes have about 30 (fewer than 16 happens
    /// with a probability far below 2^-100); all zeros, one repeated byte or a short repeated pattern have a handful.
    static let minimumDistinctKeyBytes = 16

    /// The secrets key from `--secrets-key` or `--secrets-key-file` (base64 of 32 bytes); exactly one must be given,
    /// and it must not be weak (``minimumDistinctKeyBytes``).
    static func secretsKey(_ settings: ServerSettings, reason: String) throws(ConfigurationError) -> SecretBox {
        let text: String
        let setting: String
        switch (settings.secretsKey, settings.secretsKeyFile) {
        case (.some, .some):
            throw ConfigurationError("--secrets-key", "give --secrets-key or --secrets-key-file, not both")
        case (let key?, nil):
            (text, setting) = (key, "--secrets-key")
        case (nil, let path?):
            (text, setting) = (try ServerConfiguration.readText(path, for: "--secrets-key-file"), "--secrets-key-file")
        case (nil, nil):
            throw ConfigurationError(
                "--secrets-key",
                "\(reason): 32 random bytes, base64 (openssl rand -base64 32)"
            )
        }
        if let bytes = Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32,
            Set(bytes).count < minimumDistinctKeyBytes
        {
            throw ConfigurationError(
                setting, "is a weak key (zeros or repeated bytes); make a random one: openssl rand -base64 32")
        }
        do {
            return try SecretBox(base64Key: text)
        } catch {
            throw ConfigurationError(
                setting, "must be 32 random bytes in base64 (openssl rand -base64 32): \(error.message)")
        }
    }
}
