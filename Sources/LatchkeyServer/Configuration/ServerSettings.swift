import Foundation

/// One layer of server settings, every one optional: a JSON config file, the `LATCHKEY_*` environment or the
/// command-line flags. Layers merge with ``overriding(_:)`` (flags over environment over file), then
/// ``ServerConfiguration/init(_:)`` validates the result and fills in defaults.
///
/// The JSON file uses the property names below, e.g.
/// `{"port": 8443, "rpID": "example.com", "origins": ["https://example.com"], "rateLimit": 60}`.
public struct ServerSettings: Codable, Hashable, Sendable {
    /// The address to listen on.
    public var host: String?
    /// The TCP port.
    public var port: Int?
    /// `sqlite:///path`, a file path, or `postgres://user:password@host:port/database`.
    public var database: String?
    /// The relying party ID.
    public var rpID: String?
    /// The relying party's display name.
    public var rpName: String?
    /// Web origins on the RP ID.
    public var origins: [String]?
    /// `TEAMID.bundle.id` for each Apple app.
    public var appleAppIDs: [String]?
    /// `package:SHA256_FINGERPRINT` for each Android app.
    public var androidApps: [String]?
    /// Origins on other domains that use this RP ID.
    public var relatedOrigins: [String]?
    /// `required`, `preferred` or `discouraged`.
    public var userVerification: String?
    /// `none`, `indirect`, `direct` or `enterprise`.
    public var attestation: String?
    /// Ceremony requests per minute per client address; 0 turns rate limiting off.
    public var rateLimit: Int?
    /// CIDR blocks whose `X-Forwarded-For` is believed.
    public var trustedProxies: [String]?
    /// Accept challenges sent as base64url text (a compatibility switch, off by default).
    public var acceptBase64URLTextChallenge: Bool?
    /// The largest request body, in bytes.
    public var bodyLimit: Int?
    /// How long a session lasts, in seconds.
    public var sessionLifetime: Int?
    /// How long a ceremony may take, in seconds.
    public var ceremonyLifetime: Int?
    /// How long after the user last proved who they are a session may make sensitive changes, in seconds.
    public var reauthenticationWindow: Int?
    /// How long a connection may sit with no request under way, in seconds.
    public var idleTimeout: Int?
    /// How long a client may take to send a request's headers, from its first byte, in seconds.
    public var headerTimeout: Int?
    /// How long a client may take to send a request's body, after its headers, in seconds.
    public var bodyTimeout: Int?
    /// How long an answer may wait for the client to take it, in seconds.
    public var writeTimeout: Int?
    /// How many connections one client address may hold open at once.
    public var maxConnectionsPerAddress: Int?
    /// An MDS3 metadata BLOB: a file path or an `https://` URL (e.g. `https://mds3.fidoalliance.org/`).
    public var metadata: String?
    /// A PEM file with the root the metadata BLOB must chain to (default: the FIDO Alliance's MDS root).
    public var metadataTrustRoot: String?
    /// `any`, `trusted` or `certified`.
    public var attestationPolicy: String?
    /// Authenticator models (AAGUIDs) that alone may register new passkeys.
    public var authenticatorAllow: [String]?
    /// Authenticator models (AAGUIDs) that may not register new passkeys.
    public var authenticatorDeny: [String]?
    /// `any`, `device-bound` or `synced`: whether a new passkey may, or must, be backed up.
    public var passkeyBackup: String?
    /// `reject` or `accept-and-record`: what a sign-in does when a passkey's backup-eligible flag changed.
    public var backupEligibilityChange: String?
    /// Sign in with Apple: the developer team ID.
    public var appleTeamID: String?
    /// Sign in with Apple: the ID of the Sign in with Apple key.
    public var appleKeyID: String?
    /// Sign in with Apple: the path of the key's `.p8` file.
    public var applePrivateKey: String?
    /// Sign in with Apple: the apps' bundle IDs.
    public var appleClientIDs: [String]?
    /// Sign in with Apple: the Services ID of the web flow.
    public var appleServicesID: String?
    /// Sign in with Apple: the web flow's return URL (`…/v1/apple/callback`), as registered with the Services ID.
    public var appleRedirectURI: String?
    /// Sign in with Apple: Apple's base URL (`https://appleid.apple.com`; tests use a local stand-in).
    public var appleBaseURL: String?
    /// Sign in with Apple: how old (by its `iat`) an identity token may be when it signs in, in seconds.
    public var appleTokenMaxAge: Int?
    /// The key that encrypts secrets at rest: 32 random bytes, base64.
    public var secretsKey: String?
    /// A file holding ``secretsKey``.
    public var secretsKeyFile: String?
    /// Where email goes: `smtp://user:password@host:587` (STARTTLS), `smtps://…:465`, or `log:` (development).
    public var smtpURL: String?
    /// The sender address of the server's email (default `no-reply@<rp id>`).
    public var emailFrom: String?
    /// A directory of message templates (`<name>.txt`) that replace the built-in English ones.
    public var emailTemplates: String?
    /// The `aud` of access tokens; setting it turns access tokens on (needs the secrets key).
    public var accessTokenAudience: String?
    /// How long an access token is valid, in seconds (default 300).
    public var accessTokenLifetime: Int?
    /// How many days audit events are kept (default 90; 0 keeps no audit log).
    public var auditRetentionDays: Int?
    /// A JSON file of the webhook endpoints audit events are sent to.
    public var webhooksFile: String?
    /// A JSON file of claims added to every access token.
    public var accessTokenClaims: String?
    /// Days a signing key signs before the next takes over (default 30).
    public var signingKeyRotation: Int?
    /// The admin API's address (default 127.0.0.1).
    public var adminHost: String?
    /// The admin API's port; setting it turns the admin API on.
    public var adminPort: Int?
    /// A file of admin keys, one `name:secret` per line.
    public var adminKeysFile: String?
    /// Admin keys given directly (`name:secret`).
    public var adminKeys: [String]?
    /// Password accounts (`/v1/password/*`): on by default.
    public var passwordSignIn: Bool?
    /// A file holding the bearer token `GET /metrics` requires; without it `/metrics` is off.
    public var metricsTokenFile: String?
    /// How many event loops (threads) serve connections; one per core by default.
    public var eventLoops: Int?

    /// No settings: every value comes from another layer or the defaults.
    public init() {}

    /// `self` with every setting that `other` has replaced by `other`'s.
    public func overriding(_ other: ServerSettings) -> ServerSettings {
        var merged = self
        for setting in Self.settings { setting.override(&merged, other) }
        return merged
    }

    /// Reads a JSON config file. Unknown keys are refused, so a misspelt setting is not silently ignored.
    public init(configFile path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("--config", "cannot read \(path)")
        }
        try self.init(configJSON: data, path: path)
    }

    /// Reads a config file's contents; `path` names the file in errors.
    init(configJSON data: Data, path: String) throws(ConfigurationError) {
        do {
            let keys = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let known = Set(Mirror(reflecting: ServerSettings()).children.compactMap(\.label))
            if let unknown = keys?.keys.sorted().first(where: { !known.contains($0) }) {
                throw ConfigurationError(
                    "--config",
                    "\(path): unknown setting '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
            }
            self = try JSONDecoder().decode(ServerSettings.self, from: data)
        } catch let error as ConfigurationError {
            throw error
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw ConfigurationError("--config", "\(path): '\(key)' has the wrong type")
        } catch {
            throw ConfigurationError("--config", "\(path) is not a JSON object of settings")
        }
    }

    /// Reads the `LATCHKEY_*` variables of `environment`. Lists are comma-separated
    /// (`LATCHKEY_ORIGINS=https://a.example,https://b.example`).
    public init(environment: [String: String]) throws(ConfigurationError) {
        self.init()
        for setting in Self.settings { try setting.read(&self, environment) }
    }

    /// Loads the layers in order: the config file (`configFile`, or `LATCHKEY_CONFIG`), then the environment, then
    /// `flags`.
    public static func load(flags: ServerSettings, configFile: String?, environment: [String: String])
        throws(ConfigurationError) -> ServerSettings
    {
        var settings = ServerSettings()
        if let path = configFile ?? environment["LATCHKEY_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            settings = try ServerSettings(configFile: path)
        }
        return settings.overriding(try ServerSettings(environment: environment)).overriding(flags)
    }

    /// Every setting, with the name of its environment variable (after `LATCHKEY_`) and how that is read.
    static let settings: [Setting] = [
        .text(\.host, "HOST"), .integer(\.port, "PORT"), .text(\.database, "DATABASE"), .text(\.rpID, "RP_ID"),
        .text(\.rpName, "RP_NAME"), .list(\.origins, "ORIGINS"), .list(\.appleAppIDs, "APPLE_APP_IDS"),
        .list(\.androidApps, "ANDROID_APPS"), .list(\.relatedOrigins, "RELATED_ORIGINS"),
        .text(\.userVerification, "USER_VERIFICATION"), .text(\.attestation, "ATTESTATION"),
        .integer(\.rateLimit, "RATE_LIMIT"), .list(\.trustedProxies, "TRUSTED_PROXIES"),
        .flag(\.acceptBase64URLTextChallenge, "ACCEPT_BASE64URL_TEXT_CHALLENGE"), .integer(\.bodyLimit, "BODY_LIMIT"),
        .integer(\.sessionLifetime, "SESSION_LIFETIME"), .integer(\.ceremonyLifetime, "CEREMONY_LIFETIME"),
        .integer(\.reauthenticationWindow, "REAUTHENTICATION_WINDOW"), .integer(\.idleTimeout, "IDLE_TIMEOUT"),
        .integer(\.headerTimeout, "HEADER_TIMEOUT"), .integer(\.bodyTimeout, "BODY_TIMEOUT"),
        .integer(\.writeTimeout, "WRITE_TIMEOUT"), .integer(\.maxConnectionsPerAddress, "MAX_CONNECTIONS_PER_ADDRESS"),
        .text(\.metadata, "METADATA"), .text(\.metadataTrustRoot, "METADATA_TRUST_ROOT"),
        .text(\.attestationPolicy, "ATTESTATION_POLICY"), .list(\.authenticatorAllow, "AUTHENTICATOR_ALLOW"),
        .list(\.authenticatorDeny, "AUTHENTICATOR_DENY"), .text(\.passkeyBackup, "PASSKEY_BACKUP"),
        .text(\.backupEligibilityChange, "BACKUP_ELIGIBILITY_CHANGE"), .text(\.appleTeamID, "APPLE_TEAM_ID"),
        .text(\.appleKeyID, "APPLE_KEY_ID"), .text(\.applePrivateKey, "APPLE_PRIVATE_KEY"),
        .list(\.appleClientIDs, "APPLE_CLIENT_IDS"), .text(\.appleServicesID, "APPLE_SERVICES_ID"),
        .text(\.appleRedirectURI, "APPLE_REDIRECT_URI"), .text(\.appleBaseURL, "APPLE_BASE_URL"),
        .integer(\.appleTokenMaxAge, "APPLE_TOKEN_MAX_AGE"), .text(\.secretsKey, "SECRETS_KEY"),
        .text(\.secretsKeyFile, "SECRETS_KEY_FILE"), .text(\.accessTokenAudience, "ACCESS_TOKEN_AUDIENCE"),
        .integer(\.accessTokenLifetime, "ACCESS_TOKEN_LIFETIME"),
        .integer(\.auditRetentionDays, "AUDIT_RETENTION_DAYS"), .text(\.webhooksFile, "WEBHOOKS_FILE"),
        .text(\.accessTokenClaims, "ACCESS_TOKEN_CLAIMS"), .integer(\.signingKeyRotation, "SIGNING_KEY_ROTATION"),
        .text(\.adminHost, "ADMIN_HOST"), .integer(\.adminPort, "ADMIN_PORT"),
        .text(\.adminKeysFile, "ADMIN_KEYS_FILE"), .list(\.adminKeys, "ADMIN_KEYS"), .text(\.smtpURL, "SMTP_URL"),
        .text(\.emailFrom, "EMAIL_FROM"), .text(\.emailTemplates, "EMAIL_TEMPLATES"),
        .flag(\.passwordSignIn, "PASSWORD_SIGN_IN"), .text(\.metricsTokenFile, "METRICS_TOKEN_FILE"),
        .integer(\.eventLoops, "EVENT_LOOPS"),
    ]
}

/// One setting of ``ServerSettings``: how a layer overrides it and how the environment gives it.
struct Setting: Sendable {
    let override: @Sendable (inout ServerSettings, ServerSettings) -> Void
    let read: @Sendable (inout ServerSettings, [String: String]) throws(ConfigurationError) -> Void

    private init<Value>(
        _ path: WritableKeyPath<ServerSettings, Value?> & Sendable, _ variable: String,
        _ parse: @escaping @Sendable (String, String) throws(ConfigurationError) -> Value?
    ) {
        override = { merged, other in
            if let value = other[keyPath: path] { merged[keyPath: path] = value }
        }
        read = { settings, environment throws(ConfigurationError) in
            guard let value = environment["LATCHKEY_" + variable]?.trimmingCharacters(in: .whitespaces),
                !value.isEmpty
            else { return }
            settings[keyPath: path] = try parse(value, "LATCHKEY_" + variable)
        }
    }

    static func text(_ path: WritableKeyPath<ServerSettings, String?> & Sendable, _ variable: String) -> Setting {
        Setting(path, variable) { value, _ in value }
    }

    static func list(_ path: WritableKeyPath<ServerSettings, [String]?> & Sendable, _ variable: String) -> Setting {
        Setting(path, variable) { value, _ in
            value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    static func integer(_ path: WritableKeyPath<ServerSettings, Int?> & Sendable, _ variable: String) -> Setting {
        Setting(path, variable) { value, name throws(ConfigurationError) in
            guard let number = Int(value) else { throw ConfigurationError(name, "'\(value)' is not a whole number") }
            return number
        }
    }

    static func flag(_ path: WritableKeyPath<ServerSettings, Bool?> & Sendable, _ variable: String) -> Setting {
        Setting(path, variable) { value, name throws(ConfigurationError) in
            let value = value.lowercased()
            switch value {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw ConfigurationError(name, "'\(value)' is not true or false")
            }
        }
    }
}
