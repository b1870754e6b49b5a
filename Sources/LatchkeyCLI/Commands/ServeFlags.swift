import ArgumentParser
import Foundation
import LatchkeyServer

/// The flags of `latchkey serve`, each overriding the environment and the config file when given.
struct ServeFlags: ParsableArguments {
    @Option(help: "The address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).")
    var host: String?

    @Option(help: "The TCP port (default 8080).")
    var port: Int?

    @Option(
        help: "sqlite:///path, a file path, or postgres://user:password@host:port/database (default ./latchkey.sqlite)."
    )
    var database: String?

    @Option(help: "The relying party ID: the site's registrable domain (default localhost).")
    var rpId: String?

    @Option(help: "The relying party's name shown by authenticators (default Latchkey).")
    var rpName: String?

    @Option(help: "A web origin served (repeatable; default http://localhost:<port>, or https://<rp id>).")
    var origin: [String] = []

    @Option(help: "An Apple app allowed to use the passkeys, TEAMID.bundle.id (repeatable).")
    var appleAppId: [String] = []

    @Option(help: "An Android app, package:SHA256_CERT_FINGERPRINT (repeatable).")
    var androidApp: [String] = []

    @Option(help: "An origin on another domain that uses this RP ID (repeatable; served in /.well-known/webauthn).")
    var relatedOrigin: [String] = []

    @Option(help: "required, preferred or discouraged (default preferred).")
    var userVerification: String?

    @Option(help: "none, indirect, direct or enterprise (default none).")
    var attestation: String?

    @Option(help: "Ceremony requests per minute per client address; 0 turns it off (default 120).")
    var rateLimit: Int?

    @Option(help: "A proxy whose X-Forwarded-For is believed, as a CIDR block (repeatable).")
    var trustedProxy: [String] = []

    @Flag(help: "Accept client data whose challenge is the base64url of the base64url challenge text (some iOS SDKs).")
    var acceptBase64urlTextChallenge = false

    @Option(help: "The largest request body in bytes (default 65536).")
    var bodyLimit: Int?

    @Option(help: "How long a session lasts, in seconds (default 30 days).")
    var sessionLifetime: Int?

    @Option(help: "How long a ceremony may take, in seconds (default 300).")
    var ceremonyLifetime: Int?

    @Option(
        help:
            "Seconds after the user last proved who they are that a session may make sensitive changes (default 300).")
    var reauthenticationWindow: Int?

    @Option(help: "Seconds a connection may sit with no request under way before it is closed (default 60).")
    var idleTimeout: Int?

    @Option(help: "Seconds a client may take to send a request's headers, from its first byte (default 10).")
    var headerTimeout: Int?

    @Option(help: "Seconds a client may take to send a request's body, after its headers (default 30).")
    var bodyTimeout: Int?

    @Option(help: "Seconds an answer may wait for the client to read it, from the last answer it read (default 30).")
    var writeTimeout: Int?

    @Option(help: "Connections one client address may hold open at once; trusted proxies are exempt (default 64).")
    var maxConnectionsPerAddress: Int?

    @Option(
        help:
            "FIDO metadata (MDS3 BLOB): a file or an https URL such as https://mds3.fidoalliance.org/ (default: none).")
    var metadata: String?

    @Option(help: "A PEM file with the root the metadata BLOB must chain to (default: the FIDO Alliance MDS root).")
    var metadataTrustRoot: String?

    @Option(help: "any, trusted or certified: what a registration's attestation must prove (default any).")
    var attestationPolicy: String?

    @Option(help: "An authenticator model (AAGUID) that alone may register new passkeys (repeatable).")
    var authenticatorAllow: [String] = []

    @Option(help: "An authenticator model (AAGUID) that may not register new passkeys (repeatable).")
    var authenticatorDeny: [String] = []

    @Option(help: "any, device-bound or synced: whether new passkeys may, or must, be backed up (default any).")
    var passkeyBackup: String?

    @Option(
        help: "reject or accept-and-record: a sign-in whose passkey's backup-eligible flag changed (default reject).")
    var backupEligibilityChange: String?

    @Option(help: "Sign in with Apple: your developer team ID.")
    var appleTeamId: String?

    @Option(help: "Sign in with Apple: the ID of your Sign in with Apple key.")
    var appleKeyId: String?

    @Option(help: ArgumentHelp("Sign in with Apple: the key's .p8 file.", valueName: "file"))
    var applePrivateKey: String?

    @Option(help: "Sign in with Apple: an app's bundle ID (repeatable); turns Sign in with Apple on.")
    var appleClientId: [String] = []

    @Option(help: "Sign in with Apple: the Services ID of the web flow.")
    var appleServicesId: String?

    @Option(help: "Sign in with Apple: the web flow's return URL, https://<site>/v1/apple/callback.")
    var appleRedirectUri: String?

    @Option(help: "Sign in with Apple: Apple's base URL (default https://appleid.apple.com).")
    var appleBaseUrl: String?

    @Option(help: "Sign in with Apple: how old an identity token may be when it signs in, in seconds (default 300).")
    var appleTokenMaxAge: Int?

    @Option(
        help: ArgumentHelp(
            "The key that encrypts secrets at rest: 32 random bytes, base64. Visible in ps: prefer --secrets-key-file.",
            valueName: "base64"))
    var secretsKey: String?

    @Option(
        help: ArgumentHelp("A file holding the base64 secrets key (preferred over --secrets-key).", valueName: "file"))
    var secretsKeyFile: String?

    @Option(help: ArgumentHelp("Password accounts (/v1/password/*): on or off (default on).", valueName: "on|off"))
    var passwordSignIn: OnOff?

    @Option(help: "The admin API's address (default 127.0.0.1).")
    var adminHost: String?

    @Option(help: "Serve the admin API on this port (off by default; 0 picks a free one).")
    var adminPort: Int?

    @Option(
        help: ArgumentHelp(
            "A file of admin keys, one name:secret per line (secrets of 32+ characters: openssl rand -hex 32).",
            valueName: "file"))
    var adminKeysFile: String?

    @Option(
        help: ArgumentHelp(
            "Issue access tokens (JWTs other services verify against /.well-known/jwks.json) with this audience (aud); needs --secrets-key-file.",
            valueName: "aud"))
    var accessTokenAudience: String?

    @Option(help: "How long an access token is valid, in seconds (default 300).")
    var accessTokenLifetime: Int?

    @Option(help: "How many days the audit log keeps security events (default 90; 0 keeps no audit log).")
    var auditRetentionDays: Int?

    @Option(
        help: ArgumentHelp(
            "A JSON file of webhook endpoints audit events are sent to ([{name, url, secret, events?}]).",
            valueName: "file"))
    var webhooksFile: String?

    @Option(
        help: ArgumentHelp(
            "A JSON file of claims added to every access token ({user.id}, {user.name}, {user.displayName} filled in).",
            valueName: "file"))
    var accessTokenClaims: String?

    @Option(help: "Days a key signs access tokens before the next one takes over (default 30).")
    var signingKeyRotation: Int?

    @Option(
        help: ArgumentHelp(
            "Where email goes: smtp://user:password@host:587 (STARTTLS), smtps://user:password@host:465, or log: (development). Without it the server sends no email. Prefer LATCHKEY_SMTP_URL: a password here is visible in ps.",
            valueName: "url"))
    var smtpUrl: String?

    @Option(help: ArgumentHelp("The sender address of email (default no-reply@<rp id>).", valueName: "address"))
    var emailFrom: String?

    @Option(
        help: ArgumentHelp(
            "A directory of message templates (<name>.txt: a 'Subject: …' line, then the body) replacing the built-in English texts.",
            valueName: "dir"))
    var emailTemplates: String?

    @Option(
        help: ArgumentHelp(
            "A file holding the bearer token GET /metrics requires (without it /metrics is off).", valueName: "file"))
    var metricsTokenFile: String?

    @Option(
        help:
            "How many event loops (threads) serve connections (default: one per core; fewer cost less CPU per request where other busy processes share the cores)."
    )
    var eventLoops: Int?

    /// Warnings about how the flags were given: a secret on the command line is visible to every user in `ps`.
    var warnings: [String] {
        var warnings: [String] = []
        if secretsKey != nil {
            warnings.append(
                "--secrets-key puts the key on the command line, where any user on the host can read it (ps); use --secrets-key-file or LATCHKEY_SECRETS_KEY_FILE"
            )
        }
        if let smtpUrl, URLComponents(string: smtpUrl)?.password != nil {
            warnings.append(
                "--smtp-url puts the SMTP password on the command line, where any user on the host can read it (ps); use LATCHKEY_SMTP_URL"
            )
        }
        return warnings
    }

    /// The settings these flags give; unset flags leave the other layers' values.
    var settings: ServerSettings {
        var settings = ServerSettings()
        settings.host = host
        settings.port = port
        settings.database = database
        settings.rpID = rpId
        settings.rpName = rpName
        settings.origins = origin.isEmpty ? nil : origin
        settings.appleAppIDs = appleAppId.isEmpty ? nil : appleAppId
        settings.androidApps = androidApp.isEmpty ? nil : androidApp
        settings.relatedOrigins = relatedOrigin.isEmpty ? nil : relatedOrigin
        settings.userVerification = userVerification
        settings.attestation = attestation
        settings.rateLimit = rateLimit
        settings.trustedProxies = trustedProxy.isEmpty ? nil : trustedProxy
        settings.acceptBase64URLTextChallenge = acceptBase64urlTextChallenge ? true : nil
        settings.bodyLimit = bodyLimit
        settings.sessionLifetime = sessionLifetime
        settings.ceremonyLifetime = ceremonyLifetime
        settings.reauthenticationWindow = reauthenticationWindow
        settings.idleTimeout = idleTimeout
        settings.headerTimeout = headerTimeout
        settings.bodyTimeout = bodyTimeout
        settings.writeTimeout = writeTimeout
        settings.maxConnectionsPerAddress = maxConnectionsPerAddress
        settings.metadata = metadata
        settings.metadataTrustRoot = metadataTrustRoot
        settings.attestationPolicy = attestationPolicy
        settings.authenticatorAllow = authenticatorAllow.isEmpty ? nil : authenticatorAllow
        settings.authenticatorDeny = authenticatorDeny.isEmpty ? nil : authenticatorDeny
        settings.passkeyBackup = passkeyBackup
        settings.backupEligibilityChange = backupEligibilityChange
        settings.appleTeamID = appleTeamId
        settings.appleKeyID = appleKeyId
        settings.applePrivateKey = applePrivateKey
        settings.appleClientIDs = appleClientId.isEmpty ? nil : appleClientId
        settings.appleServicesID = appleServicesId
        settings.appleRedirectURI = appleRedirectUri
        settings.appleBaseURL = appleBaseUrl
        settings.appleTokenMaxAge = appleTokenMaxAge
        settings.secretsKey = secretsKey
        settings.secretsKeyFile = secretsKeyFile
        settings.passwordSignIn = passwordSignIn.map { $0 == .on }
        settings.adminHost = adminHost
        settings.adminPort = adminPort
        settings.adminKeysFile = adminKeysFile
        settings.accessTokenAudience = accessTokenAudience
        settings.accessTokenLifetime = accessTokenLifetime
        settings.auditRetentionDays = auditRetentionDays
        settings.webhooksFile = webhooksFile
        settings.accessTokenClaims = accessTokenClaims
        settings.signingKeyRotation = signingKeyRotation
        settings.smtpURL = smtpUrl
        settings.emailFrom = emailFrom
        settings.emailTemplates = emailTemplates
        settings.metricsTokenFile = metricsTokenFile
        settings.eventLoops = eventLoops
        return settings
    }
}

/// A switch given as `on` or `off`.
enum OnOff: String, ExpressibleByArgument, CaseIterable, Sendable {
    case on, off
}
