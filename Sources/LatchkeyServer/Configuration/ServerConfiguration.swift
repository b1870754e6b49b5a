import Foundation
import LatchkeyStore
import NIOCore
import WebAuthn

/// The validated configuration of a Latchkey server. Make it from ``ServerSettings`` with ``init(_:)``, which
/// fills in defaults and throws ``ConfigurationError`` for anything the server cannot run with.
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The TCP port (0 picks a free one).
    public var port: Int
    /// Where the data lives.
    public var database: StoreURL
    /// The relying party ID: the registrable domain passkeys are bound to.
    public var rpID: String
    /// The name authenticators show.
    public var rpName: String
    /// The web origins served, as given (or the default for the RP ID).
    public var origins: [String]
    /// Apple apps listed in `apple-app-site-association`.
    public var appleAppIDs: [AppleAppID]
    /// Android apps: their origins are accepted and they are listed in `assetlinks.json`.
    public var androidApps: [AndroidApp]
    /// Origins on other domains that use this RP ID (listed in `/.well-known/webauthn`).
    public var relatedOrigins: [String]
    /// The user-verification policy; `required` is enforced on every ceremony.
    public var userVerification: UserVerificationRequirement
    /// The attestation conveyance asked for in registrations.
    public var attestation: AttestationConveyancePreference
    /// Ceremony requests per minute per client address; 0 means no limit.
    public var rateLimitPerMinute: Int
    /// Proxies whose `X-Forwarded-For` is believed.
    public var trustedProxies: [CIDRBlock]
    /// The core's compatibility switch for challenges sent as base64url text (off by default).
    public var acceptBase64URLTextChallenge: Bool
    /// The largest request body, in bytes.
    public var bodyLimit: Int
    /// How long a session lasts.
    public var sessionLifetime: Duration
    /// How long a ceremony may take between its options and its result.
    public var ceremonyLifetime: Duration
    /// How long after the user last proved who they are (the session's `verifiedAt`) a session may make
    /// sensitive changes; after it, 401 `reauth.required`.
    public var reauthenticationWindow: Duration
    /// How long the audit log keeps events; nil: no audit log.
    public var auditRetention: Duration?
    /// The endpoints audit events are sent to as webhooks (`--webhooks-file`).
    public var webhooks: [WebhookEndpoint]
    /// How long a client may leave a connection idle, or take over a request's headers or body.
    public var connectionDeadlines: ConnectionDeadlines
    /// How many connections one client address may hold open at once (trusted proxies are exempt).
    public var maxConnectionsPerAddress: Int
    /// FIDO metadata for registrations and authenticator names; nil when none is configured.
    public var metadata: MetadataConfiguration?
    /// What a registration's attestation must prove (`any` by default).
    public var attestationPolicy: AttestationPolicy
    /// Which authenticators may register new passkeys (`--authenticator-allow`, `--authenticator-deny`,
    /// `--passkey-backup`).
    public var authenticatorPolicy: AuthenticatorPolicy
    /// What a sign-in does when a passkey's backup-eligible flag changed (`--backup-eligibility-change`).
    public var backupEligibilityChange: BackupEligibilityChangePolicy
    /// Sign in with Apple, or nil when it is off (no `--apple-client-id` and no `--apple-services-id`).
    public var apple: AppleConfiguration?
    /// Email (verified addresses, recovery by email, notices), or nil when no `--smtp-url` is set.
    public var email: EmailConfiguration?
    /// Access tokens for other services, or nil when no `--access-token-audience` is set.
    public var accessTokens: AccessTokenConfiguration?
    /// The admin API, or nil when no `--admin-port` is set.
    public var admin: AdminConfiguration?
    /// Whether password accounts (`/v1/password/*`) are on (`--password-sign-in`, on by default).
    public var passwordSignIn: Bool
    /// The bearer token `GET /metrics` requires (from `--metrics-token-file`); nil turns `/metrics` off (404).
    public var metricsToken: String?
    /// How many event loops (threads) serve connections (`--event-loops`): one per core by default.
    ///
    /// The server runs on SwiftNIO's shared event loop group, which `latchkey serve` sizes before anything else runs
    /// (`NIOSingletons.groupLoopCountSuggestion`); a program running ``ServerRunner`` itself sizes the group the same
    /// way, and the runner warns when the group it finds has another size. Fewer loops than cores cost less CPU per
    /// request where other busy processes share the cores (docs/PERFORMANCE.md).
    public var eventLoops: Int
    /// The event loop counts `--event-loops` accepts.
    public static let eventLoopRange = 1...1024
    /// The scrypt parameters new password hashes get (OWASP's minimum by default); hashes made with others are
    /// rehashed at the next successful sign-in.
    public var passwordHashing: ScryptParameters = .owasp
    /// How many password hashes may run at once (one per core by default); the others wait.
    public var passwordHashConcurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// The per-account throttle of wrong passwords.
    public var passwordThrottle = PasswordThrottlePolicy()

    /// The default TCP port.
    public static let defaultPort = 8080
    /// The default SQLite database file.
    public static let defaultDatabase = "latchkey.sqlite"
    /// The default rate limit: ceremony requests per client address per minute.
    public static let defaultRateLimit = 120
    /// The default largest request body, in bytes.
    public static let defaultBodyLimit = 64 * 1024
    /// The default session lifetime, in seconds (30 days).
    public static let defaultSessionLifetime = 30 * 24 * 3600
    /// The default ceremony lifetime, in seconds: how long options stay valid.
    public static let defaultCeremonyLifetime = 300
    /// Five minutes.
    public static let defaultReauthenticationWindow = 300
    /// How many days the audit log keeps events by default.
    public static let defaultAuditRetentionDays = 90
    /// The default idle timeout of a connection with no request under way, in seconds.
    public static let defaultIdleTimeout = 60
    /// The default time a request's headers may take from its first byte, in seconds.
    public static let defaultHeaderTimeout = 10
    /// The default time a request's body may take after its headers, in seconds.
    public static let defaultBodyTimeout = 30
    /// The default time an answer may wait for the client to take it, in seconds.
    public static let defaultWriteTimeout = 30
    /// The default number of connections one client address may hold open at once.
    public static let defaultMaxConnectionsPerAddress = 64

    /// Validates `settings` and applies the defaults: port 8080, `./latchkey.sqlite`, RP ID `localhost`,
    /// origin `http://localhost:<port>` (or `https://<rp id>`), preferred user verification, no attestation,
    /// 120 requests a minute, 64 KiB bodies, 30-day sessions, 5-minute ceremonies, connections closed after 60 s idle,
    /// 10 s over headers or 30 s over a body, no metadata, attestation policy `any`.
    public init(_ settings: ServerSettings = ServerSettings()) throws(ConfigurationError) {
        host = settings.host ?? "127.0.0.1"
        guard !host.isEmpty, !host.contains("/"), !host.contains(" ") else {
            throw ConfigurationError("--host", "'\(host)' is not a host name or address")
        }
        port = settings.port ?? Self.defaultPort
        guard (0...65535).contains(port) else {
            throw ConfigurationError("--port", "\(port) is not a TCP port (0-65535)")
        }

        do {
            database = try StoreURL(settings.database ?? Self.defaultDatabase)
        } catch {
            throw ConfigurationError("--database", error.message)
        }

        let rpID = (settings.rpID ?? "localhost").lowercased()
        try Self.checkRPID(rpID)
        self.rpID = rpID
        rpName = settings.rpName ?? "Latchkey"
        guard !rpName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ConfigurationError("--rp-name", "must not be empty")
        }

        let defaultOrigin =
            rpID == "localhost" ? "http://localhost:\(port == 0 ? Self.defaultPort : port)" : "https://\(rpID)"
        origins = try (settings.origins ?? [defaultOrigin]).map { origin throws(ConfigurationError) in
            try Self.checkOrigin(origin, setting: "--origin", rpID: rpID)
        }
        guard !origins.isEmpty else { throw ConfigurationError("--origin", "at least one origin is needed") }
        relatedOrigins = try (settings.relatedOrigins ?? []).map { origin throws(ConfigurationError) in
            try Self.checkOrigin(origin, setting: "--related-origin", rpID: nil)
        }
        appleAppIDs = try (settings.appleAppIDs ?? []).map(AppleAppID.init)
        androidApps = try (settings.androidApps ?? []).map(AndroidApp.init)

        let verification = settings.userVerification ?? UserVerificationRequirement.preferred.rawValue
        guard ["required", "preferred", "discouraged"].contains(verification) else {
            throw ConfigurationError(
                "--user-verification", "'\(verification)' is not required, preferred or discouraged")
        }
        userVerification = UserVerificationRequirement(rawValue: verification)
        let conveyance = settings.attestation ?? AttestationConveyancePreference.none.rawValue
        guard ["none", "indirect", "direct", "enterprise"].contains(conveyance) else {
            throw ConfigurationError("--attestation", "'\(conveyance)' is not none, indirect, direct or enterprise")
        }
        attestation = AttestationConveyancePreference(rawValue: conveyance)

        rateLimitPerMinute = settings.rateLimit ?? Self.defaultRateLimit
        guard rateLimitPerMinute >= 0 else {
            throw ConfigurationError("--rate-limit", "must be 0 (off) or more requests per minute")
        }
        trustedProxies = try (settings.trustedProxies ?? []).map(CIDRBlock.init)
        acceptBase64URLTextChallenge = settings.acceptBase64URLTextChallenge ?? false

        bodyLimit = try Self.bounded(
            settings.bodyLimit ?? Self.defaultBodyLimit, "--body-limit", 1024...16 * 1024 * 1024,
            unit: " bytes", bounds: "1 KiB to 16 MiB")
        /// The setting's value (or its default) in seconds, which must be in `range`; `bounds` says it in words.
        func duration(
            _ value: Int?, _ defaultValue: Int, _ setting: String, _ range: ClosedRange<Int> = 1...3600,
            _ bounds: String = "1 second to one hour"
        ) throws(ConfigurationError) -> Duration {
            .seconds(try Self.bounded(value ?? defaultValue, setting, range, unit: " seconds", bounds: bounds))
        }
        sessionLifetime = try duration(
            settings.sessionLifetime, Self.defaultSessionLifetime, "--session-lifetime", 60...366 * 24 * 3600,
            "one minute to one year")
        ceremonyLifetime = try duration(
            settings.ceremonyLifetime, Self.defaultCeremonyLifetime, "--ceremony-lifetime", 10...3600,
            "10 seconds to one hour")
        reauthenticationWindow = try duration(
            settings.reauthenticationWindow, Self.defaultReauthenticationWindow, "--reauthentication-window",
            30...24 * 3600, "30 seconds to one day")
        let auditDays = try Self.bounded(
            settings.auditRetentionDays ?? Self.defaultAuditRetentionDays, "--audit-retention-days", 0...3650,
            unit: " days", bounds: "0 (no audit log) to 3650")
        auditRetention = auditDays == 0 ? nil : .seconds(auditDays * 86_400)
        webhooks = try WebhookEndpoint.load(settings.webhooksFile)
        if !webhooks.isEmpty, auditRetention == nil {
            throw ConfigurationError(
                "--webhooks-file", "webhooks send audit events: --audit-retention-days must not be 0")
        }
        connectionDeadlines = ConnectionDeadlines(
            idle: try duration(settings.idleTimeout, Self.defaultIdleTimeout, "--idle-timeout"),
            header: try duration(settings.headerTimeout, Self.defaultHeaderTimeout, "--header-timeout"),
            body: try duration(settings.bodyTimeout, Self.defaultBodyTimeout, "--body-timeout"),
            write: try duration(settings.writeTimeout, Self.defaultWriteTimeout, "--write-timeout")
        )
        maxConnectionsPerAddress = try Self.bounded(
            settings.maxConnectionsPerAddress ?? Self.defaultMaxConnectionsPerAddress, "--max-connections-per-address",
            1...100_000, unit: "", bounds: "1 to 100,000")

        metadata = try settings.metadata.map { location throws(ConfigurationError) in
            try MetadataConfiguration(location: location, trustRootFile: settings.metadataTrustRoot)
        }
        if settings.metadata == nil, settings.metadataTrustRoot != nil {
            throw ConfigurationError("--metadata-trust-root", "needs --metadata (the BLOB it verifies)")
        }
        let policy = settings.attestationPolicy ?? AttestationPolicy.any.description
        guard let attestationPolicy = AttestationPolicy(policy) else {
            throw ConfigurationError("--attestation-policy", "'\(policy)' is not any, trusted or certified")
        }
        if attestationPolicy.requirement != .any, attestation == .none {
            throw ConfigurationError(
                "--attestation-policy",
                "\(policy) needs attestation statements: set --attestation direct or enterprise (with none, browsers send none)"
            )
        }
        if attestationPolicy.requirement == .certified, metadata == nil {
            throw ConfigurationError(
                "--attestation-policy", "certified needs --metadata (certification levels come from FIDO metadata)")
        }
        self.attestationPolicy = attestationPolicy
        authenticatorPolicy = try Self.authenticatorPolicy(settings)
        let change = settings.backupEligibilityChange ?? BackupEligibilityChangePolicy.reject.rawValue
        guard let backupEligibilityChange = BackupEligibilityChangePolicy(rawValue: change) else {
            throw ConfigurationError("--backup-eligibility-change", "'\(change)' is not reject or accept-and-record")
        }
        self.backupEligibilityChange = backupEligibilityChange
        apple = try AppleConfiguration(settings)
        email = try EmailConfiguration(settings, rpID: rpID)
        accessTokens = try AccessTokenConfiguration(settings, issuer: origins[0])
        admin = try AdminConfiguration(settings)
        passwordSignIn = settings.passwordSignIn ?? true
        metricsToken = try settings.metricsTokenFile.map(Self.metricsToken(file:))
        // Only a number someone set is checked: the default is whatever SwiftNIO makes, one loop per core.
        eventLoops =
            try settings.eventLoops.map { loops throws(ConfigurationError) in
                try Self.bounded(
                    loops, "--event-loops", Self.eventLoopRange, unit: "",
                    bounds: "\(Self.eventLoopRange.lowerBound) to \(Self.eventLoopRange.upperBound)")
            } ?? System.coreCount
    }

    /// The fewest characters a metrics token may have.
    public static let minimumMetricsTokenLength = 32

    /// The token in `path`, trimmed; it must be at least ``minimumMetricsTokenLength`` printable ASCII characters.
    static func metricsToken(file path: String) throws(ConfigurationError) -> String {
        let token = try readText(path, for: "--metrics-token-file").trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= minimumMetricsTokenLength,
            token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        else {
            throw ConfigurationError(
                "--metrics-token-file",
                "\(path) must hold at least \(minimumMetricsTokenLength) printable ASCII characters (openssl rand -hex 32)"
            )
        }
        return token
    }

    /// A number setting's value (given or default), which must be in `range`: otherwise "`value` `unit` is outside
    /// `bounds`" (`unit` with its leading space, or empty).
    static func bounded(
        _ value: Int, _ setting: String, _ range: ClosedRange<Int>, unit: String, bounds: String
    ) throws(ConfigurationError) -> Int {
        guard range.contains(value) else { throw ConfigurationError(setting, "\(value)\(unit) is outside \(bounds)") }
        return value
    }

    /// The UTF-8 text of the file at `path`; a file that cannot be read as UTF-8 is `cannot read <path>` for `setting`.
    static func readText(_ path: String, for setting: String) throws(ConfigurationError) -> String {
        guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) })
        else { throw ConfigurationError(setting, "cannot read \(path)") }
        return text
    }

    /// Every origin accepted in client data: the web origins, the related origins and each Android app's
    /// `android:apk-key-hash:` origin.
    public var acceptedOrigins: [String] {
        origins + relatedOrigins + androidApps.map(\.origin)
    }

    /// Whether session cookies get the `Secure` attribute: when the first web origin is https.
    public var secureCookies: Bool { origins.first?.hasPrefix("https://") ?? false }

    /// The relying party the ceremonies verify against.
    public var relyingParty: RelyingParty {
        var relyingParty = RelyingParty(id: rpID, name: rpName, origins: acceptedOrigins)
        relyingParty.userVerification = userVerification
        relyingParty.attestation = attestation
        relyingParty.acceptsBase64URLTextChallenge = acceptBase64URLTextChallenge
        relyingParty.timeoutMilliseconds = Int(ceremonyLifetime.components.seconds) * 1000
        relyingParty.attestationTrust.metadata = metadata?.service
        relyingParty.attestationTrust.policy = attestationPolicy
        relyingParty.authenticatorPolicy = authenticatorPolicy
        relyingParty.backupEligibilityChangePolicy = backupEligibilityChange
        return relyingParty
    }

    /// `--authenticator-allow`, `--authenticator-deny` and `--passkey-backup`.
    private static func authenticatorPolicy(_ settings: ServerSettings) throws(ConfigurationError)
        -> AuthenticatorPolicy
    {
        func aaguids(_ texts: [String]?, _ flag: String) throws(ConfigurationError) -> Set<AAGUID>? {
            guard let texts else { return nil }
            var set = Set<AAGUID>()
            for text in texts {
                guard let aaguid = AAGUID(string: text) else {
                    throw ConfigurationError(flag, "'\(text)' is not an AAGUID (8-4-4-4-12 hexadecimal digits)")
                }
                set.insert(aaguid)
            }
            return set
        }
        let backupText = settings.passkeyBackup ?? AuthenticatorPolicy.Backup.any.rawValue
        guard let backup = AuthenticatorPolicy.Backup(rawValue: backupText) else {
            throw ConfigurationError("--passkey-backup", "'\(backupText)' is not any, device-bound or synced")
        }
        return AuthenticatorPolicy(
            allowed: try aaguids(settings.authenticatorAllow, "--authenticator-allow"),
            denied: try aaguids(settings.authenticatorDeny, "--authenticator-deny") ?? [], backup: backup)
    }

    private static func checkRPID(_ rpID: String) throws(ConfigurationError) {
        let labels = rpID.split(separator: ".", omittingEmptySubsequences: false)
        let validLabel: (Substring) -> Bool = { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && ASCIIText.consists(of: label, orAnyOf: "-")
        }
        guard !rpID.isEmpty, rpID.utf8.count <= 253, labels.allSatisfy(validLabel) else {
            throw ConfigurationError(
                "--rp-id", "'\(rpID)' is not a domain name (no scheme, port or path: e.g. example.com)")
        }
    }

    /// Normalises and checks one origin: `scheme://host[:port]`, https (or http on localhost), on the RP ID
    /// when `rpID` is given.
    private static func checkOrigin(_ text: String, setting: String, rpID: String?) throws(ConfigurationError) -> String
    {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty,
            components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil
        else {
            throw ConfigurationError(setting, "'\(text)' is not an origin (scheme://host[:port], no path)")
        }
        try TransportSecurity.require(scheme: scheme, host: host, text: text, setting: setting)
        if let rpID, host != rpID, !host.hasSuffix("." + rpID) {
            throw ConfigurationError(
                setting, "'\(text)' is not on the RP ID \(rpID); list origins on other domains with --related-origin")
        }
        return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}
