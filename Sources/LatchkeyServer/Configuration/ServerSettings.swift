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
        merged.host = other.host ?? host
        merged.port = other.port ?? port
        merged.database = other.database ?? database
        merged.rpID = other.rpID ?? rpID
        merged.rpName = other.rpName ?? rpName
        merged.origins = other.origins ?? origins
        merged.appleAppIDs = other.appleAppIDs ?? appleAppIDs
        merged.androidApps = other.androidApps ?? androidApps
        merged.relatedOrigins = other.relatedOrigins ?? relatedOrigins
        merged.userVerification = other.userVerification ?? userVerification
        merged.attestation = other.attestation ?? attestation
        merged.rateLimit = other.rateLimit ?? rateLimit
        merged.trustedProxies = other.trustedProxies ?? trustedProxies
        merged.acceptBase64URLTextChallenge = other.acceptBase64URLTextChallenge ?? acceptBase64URLTextChallenge
        merged.bodyLimit = other.bodyLimit ?? bodyLimit
        merged.sessionLifetime = other.sessionLifetime ?? sessionLifetime
        merged.ceremonyLifetime = other.ceremonyLifetime ?? ceremonyLifetime
        merged.reauthenticationWindow = other.reauthenticationWindow ?? reauthenticationWindow
        merged.idleTimeout = other.idleTimeout ?? idleTimeout
        merged.headerTimeout = other.headerTimeout ?? headerTimeout
        merged.bodyTimeout = other.bodyTimeout ?? bodyTimeout
        merged.writeTimeout = other.writeTimeout ?? writeTimeout
        merged.maxConnectionsPerAddress = other.maxConnectionsPerAddress ?? maxConnectionsPerAddress
        merged.metadata = other.metadata ?? metadata
        merged.metadataTrustRoot = other.metadataTrustRoot ?? metadataTrustRoot
        merged.attestationPolicy = other.attestationPolicy ?? attestationPolicy
        merged.authenticatorAllow = other.authenticatorAllow ?? authenticatorAllow
        merged.authenticatorDeny = other.authenticatorDeny ?? authenticatorDeny
        merged.passkeyBackup = other.passkeyBackup ?? passkeyBackup
        merged.backupEligibilityChange = other.backupEligibilityChange ?? backupEligibilityChange
        merged.appleTeamID = other.appleTeamID ?? appleTeamID
        merged.appleKeyID = other.appleKeyID ?? appleKeyID
        merged.applePrivateKey = other.applePrivateKey ?? applePrivateKey
        merged.appleClientIDs = other.appleClientIDs ?? appleClientIDs
        merged.appleServicesID = other.appleServicesID ?? appleServicesID
        merged.appleRedirectURI = other.appleRedirectURI ?? appleRedirectURI
        merged.appleBaseURL = other.appleBaseURL ?? appleBaseURL
        merged.appleTokenMaxAge = other.appleTokenMaxAge ?? appleTokenMaxAge
        merged.secretsKey = other.secretsKey ?? secretsKey
        merged.secretsKeyFile = other.secretsKeyFile ?? secretsKeyFile
        merged.accessTokenAudience = other.accessTokenAudience ?? accessTokenAudience
        merged.accessTokenLifetime = other.accessTokenLifetime ?? accessTokenLifetime
        merged.auditRetentionDays = other.auditRetentionDays ?? auditRetentionDays
        merged.webhooksFile = other.webhooksFile ?? webhooksFile
        merged.accessTokenClaims = other.accessTokenClaims ?? accessTokenClaims
        merged.signingKeyRotation = other.signingKeyRotation ?? signingKeyRotation
        merged.adminHost = other.adminHost ?? adminHost
        merged.adminPort = other.adminPort ?? adminPort
        merged.adminKeysFile = other.adminKeysFile ?? adminKeysFile
        merged.adminKeys = other.adminKeys ?? adminKeys
        merged.smtpURL = other.smtpURL ?? smtpURL
        merged.emailFrom = other.emailFrom ?? emailFrom
        merged.emailTemplates = other.emailTemplates ?? emailTemplates
        merged.passwordSignIn = other.passwordSignIn ?? passwordSignIn
        merged.metricsTokenFile = other.metricsTokenFile ?? metricsTokenFile
        merged.eventLoops = other.eventLoops ?? eventLoops
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
            let known = Set(CodingKeys.allCases.map(\.stringValue))
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
        func text(_ name: String) -> String? {
            guard let value = environment["LATCHKEY_" + name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty
            else { return nil }
            return value
        }
        func list(_ name: String) -> [String]? {
            guard let value = text(name) else { return nil }
            let items: [String] = value.split(separator: ",").map { item in item.trimmingCharacters(in: .whitespaces) }
            return items.filter { item in !item.isEmpty }
        }
        func integer(_ name: String) throws(ConfigurationError) -> Int? {
            guard let value = text(name) else { return nil }
            guard let number = Int(value) else {
                throw ConfigurationError("LATCHKEY_\(name)", "'\(value)' is not a whole number")
            }
            return number
        }
        func flag(_ name: String) throws(ConfigurationError) -> Bool? {
            guard let value = text(name)?.lowercased() else { return nil }
            switch value {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw ConfigurationError("LATCHKEY_\(name)", "'\(value)' is not true or false")
            }
        }
        self.init()
        host = text("HOST")
        port = try integer("PORT")
        database = text("DATABASE")
        rpID = text("RP_ID")
        rpName = text("RP_NAME")
        origins = list("ORIGINS")
        appleAppIDs = list("APPLE_APP_IDS")
        androidApps = list("ANDROID_APPS")
        relatedOrigins = list("RELATED_ORIGINS")
        userVerification = text("USER_VERIFICATION")
        attestation = text("ATTESTATION")
        rateLimit = try integer("RATE_LIMIT")
        trustedProxies = list("TRUSTED_PROXIES")
        acceptBase64URLTextChallenge = try flag("ACCEPT_BASE64URL_TEXT_CHALLENGE")
        bodyLimit = try integer("BODY_LIMIT")
        sessionLifetime = try integer("SESSION_LIFETIME")
        ceremonyLifetime = try integer("CEREMONY_LIFETIME")
        reauthenticationWindow = try integer("REAUTHENTICATION_WINDOW")
        idleTimeout = try integer("IDLE_TIMEOUT")
        headerTimeout = try integer("HEADER_TIMEOUT")
        bodyTimeout = try integer("BODY_TIMEOUT")
        writeTimeout = try integer("WRITE_TIMEOUT")
        maxConnectionsPerAddress = try integer("MAX_CONNECTIONS_PER_ADDRESS")
        metadata = text("METADATA")
        metadataTrustRoot = text("METADATA_TRUST_ROOT")
        attestationPolicy = text("ATTESTATION_POLICY")
        authenticatorAllow = list("AUTHENTICATOR_ALLOW")
        authenticatorDeny = list("AUTHENTICATOR_DENY")
        passkeyBackup = text("PASSKEY_BACKUP")
        backupEligibilityChange = text("BACKUP_ELIGIBILITY_CHANGE")
        appleTeamID = text("APPLE_TEAM_ID")
        appleKeyID = text("APPLE_KEY_ID")
        applePrivateKey = text("APPLE_PRIVATE_KEY")
        appleClientIDs = list("APPLE_CLIENT_IDS")
        appleServicesID = text("APPLE_SERVICES_ID")
        appleRedirectURI = text("APPLE_REDIRECT_URI")
        appleBaseURL = text("APPLE_BASE_URL")
        appleTokenMaxAge = try integer("APPLE_TOKEN_MAX_AGE")
        secretsKey = text("SECRETS_KEY")
        secretsKeyFile = text("SECRETS_KEY_FILE")
        accessTokenAudience = text("ACCESS_TOKEN_AUDIENCE")
        accessTokenLifetime = try integer("ACCESS_TOKEN_LIFETIME")
        auditRetentionDays = try integer("AUDIT_RETENTION_DAYS")
        webhooksFile = text("WEBHOOKS_FILE")
        accessTokenClaims = text("ACCESS_TOKEN_CLAIMS")
        signingKeyRotation = try integer("SIGNING_KEY_ROTATION")
        adminHost = text("ADMIN_HOST")
        adminPort = try integer("ADMIN_PORT")
        adminKeysFile = text("ADMIN_KEYS_FILE")
        adminKeys = list("ADMIN_KEYS")
        smtpURL = text("SMTP_URL")
        emailFrom = text("EMAIL_FROM")
        emailTemplates = text("EMAIL_TEMPLATES")
        passwordSignIn = try flag("PASSWORD_SIGN_IN")
        metricsTokenFile = text("METRICS_TOKEN_FILE")
        eventLoops = try integer("EVENT_LOOPS")
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, database, rpID, rpName, origins, appleAppIDs, androidApps, relatedOrigins, userVerification
        case attestation, rateLimit, trustedProxies, acceptBase64URLTextChallenge, bodyLimit, sessionLifetime,
            ceremonyLifetime, reauthenticationWindow
        case idleTimeout, headerTimeout, bodyTimeout, writeTimeout, maxConnectionsPerAddress
        case metadata, metadataTrustRoot, attestationPolicy
        case authenticatorAllow, authenticatorDeny, passkeyBackup, backupEligibilityChange
        case appleTeamID, appleKeyID, applePrivateKey, appleClientIDs, appleServicesID, appleRedirectURI, appleBaseURL
        case appleTokenMaxAge, secretsKey, secretsKeyFile, passwordSignIn, metricsTokenFile, eventLoops
        case smtpURL, emailFrom, emailTemplates
        case accessTokenAudience, accessTokenLifetime, accessTokenClaims, signingKeyRotation
        case adminHost, adminPort, adminKeysFile, adminKeys, auditRetentionDays, webhooksFile
    }
}
