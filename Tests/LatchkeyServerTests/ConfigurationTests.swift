import Foundation
import LatchkeyServer
import NIOCore
import Testing

/// Defaults, layering (flags over environment over file) and the errors for bad configuration.
@Suite("Configuration")
struct ConfigurationTests {
    @Test func defaults() throws {
        let configuration = try ServerConfiguration()
        #expect(configuration.port == 8080)
        #expect(configuration.rpID == "localhost")
        #expect(configuration.origins == ["http://localhost:8080"])
        #expect(configuration.database.description == "sqlite://latchkey.sqlite")
        #expect(configuration.rateLimitPerMinute == 120)
        #expect(configuration.bodyLimit == 64 * 1024)
        #expect(configuration.userVerification == .preferred)
        #expect(configuration.attestation == .none)
        #expect(!configuration.acceptBase64URLTextChallenge)
        #expect(!configuration.secureCookies)
        #expect(configuration.relyingParty.timeoutMilliseconds == 300_000)
        #expect(configuration.eventLoops == System.coreCount, "one event loop per core, as SwiftNIO's shared group has")
    }

    @Test func anRPIDOtherThanLocalhostDefaultsToItsHTTPSOrigin() throws {
        var settings = ServerSettings()
        settings.rpID = "Example.COM"
        let configuration = try ServerConfiguration(settings)
        #expect(configuration.rpID == "example.com")
        #expect(configuration.origins == ["https://example.com"])
        #expect(configuration.secureCookies)
    }

    @Test func androidAppsAddTheirOrigin() throws {
        var settings = ServerSettings()
        let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        settings.androidApps = ["com.example.app:\(fingerprint)"]
        let configuration = try ServerConfiguration(settings)
        #expect(
            configuration.androidApps.first?.origin
                == "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(
            configuration.relyingParty.origins.contains(
                "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"))
        #expect(configuration.androidApps.first?.colonSeparatedFingerprint == fingerprint)
    }

    @Test func flagsOverrideTheEnvironmentWhichOverridesTheFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-config-\(UUID().uuidString).json")
        try Data(#"{"port": 9000, "rpName": "From file", "rpID": "example.com", "rateLimit": 10}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var flags = ServerSettings()
        flags.port = 9443
        let settings = try ServerSettings.load(
            flags: flags, configFile: file.path,
            environment: [
                "LATCHKEY_PORT": "9001", "LATCHKEY_RATE_LIMIT": "0",
                "LATCHKEY_ORIGINS": "https://example.com, https://www.example.com",
            ]
        )
        let configuration = try ServerConfiguration(settings)
        #expect(configuration.port == 9443)
        #expect(configuration.rateLimitPerMinute == 0)
        #expect(configuration.rpName == "From file")
        #expect(configuration.origins == ["https://example.com", "https://www.example.com"])
    }

    @Test(arguments: [
        (ServerSettings.with { $0.port = 70000 }, "--port"),
        (ServerSettings.with { $0.rpID = "https://example.com" }, "--rp-id"),
        (ServerSettings.with { $0.origins = ["https://evil.example"] }, "--origin"),
        (
            ServerSettings.with {
                $0.rpID = "example.com"
                $0.origins = ["http://example.com"]
            }, "--origin"
        ),
        (ServerSettings.with { $0.origins = ["http://localhost:8080/path"] }, "--origin"),
        (ServerSettings.with { $0.relatedOrigins = ["ftp://example.org"] }, "--related-origin"),
        (ServerSettings.with { $0.userVerification = "always" }, "--user-verification"),
        (ServerSettings.with { $0.attestation = "full" }, "--attestation"),
        (ServerSettings.with { $0.rateLimit = -1 }, "--rate-limit"),
        (ServerSettings.with { $0.trustedProxies = ["10.0.0.0/33"] }, "--trusted-proxy"),
        (ServerSettings.with { $0.trustedProxies = ["proxy.example"] }, "--trusted-proxy"),
        (ServerSettings.with { $0.appleAppIDs = ["com.example.app"] }, "--apple-app-id"),
        (ServerSettings.with { $0.androidApps = ["com.example.app:ABCD"] }, "--android-app"),
        (
            ServerSettings.with { $0.androidApps = ["notapackage:" + String(repeating: "AB", count: 32)] },
            "--android-app"
        ),
        (ServerSettings.with { $0.database = "mysql://db/latchkey" }, "--database"),
        (ServerSettings.with { $0.bodyLimit = 10 }, "--body-limit"),
        (ServerSettings.with { $0.eventLoops = 0 }, "--event-loops"),
        (ServerSettings.with { $0.eventLoops = 1025 }, "--event-loops"),
        (ServerSettings.with { $0.sessionLifetime = 59 }, "--session-lifetime"),
        (ServerSettings.with { $0.ceremonyLifetime = 3601 }, "--ceremony-lifetime"),
        (ServerSettings.with { $0.reauthenticationWindow = 29 }, "--reauthentication-window"),
        (ServerSettings.with { $0.metricsTokenFile = "/nonexistent/latchkey-token" }, "--metrics-token-file"),
        (
            ServerSettings.with {
                $0.adminPort = 0
                $0.adminKeysFile = "/nonexistent/latchkey-admin-keys"
            }, "--admin-keys-file"
        ),
    ])
    func badSettingsAreRefusedNamingTheSetting(_ settings: ServerSettings, _ setting: String) {
        #expect {
            _ = try ServerConfiguration(settings)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.setting == setting && !error.message.isEmpty
        }
    }

    @Test(
        "a number setting outside its range is refused with the value and the range in words",
        arguments: [
            (
                ServerSettings.with { $0.sessionLifetime = 59 }, "--session-lifetime",
                "59 seconds is outside one minute to one year"
            ),
            (
                ServerSettings.with { $0.ceremonyLifetime = 3601 }, "--ceremony-lifetime",
                "3601 seconds is outside 10 seconds to one hour"
            ),
            (
                ServerSettings.with { $0.reauthenticationWindow = 86401 }, "--reauthentication-window",
                "86401 seconds is outside 30 seconds to one day"
            ),
            (ServerSettings.with { $0.idleTimeout = 0 }, "--idle-timeout", "0 seconds is outside 1 second to one hour"),
            (
                ServerSettings.with { $0.writeTimeout = 3601 }, "--write-timeout",
                "3601 seconds is outside 1 second to one hour"
            ),
            (ServerSettings.with { $0.bodyLimit = 1023 }, "--body-limit", "1023 bytes is outside 1 KiB to 16 MiB"),
            (
                ServerSettings.with { $0.bodyLimit = 16 * 1024 * 1024 + 1 }, "--body-limit",
                "16777217 bytes is outside 1 KiB to 16 MiB"
            ),
            (ServerSettings.with { $0.eventLoops = 0 }, "--event-loops", "0 is outside 1 to 1024"),
            (ServerSettings.with { $0.eventLoops = 1025 }, "--event-loops", "1025 is outside 1 to 1024"),
            (
                ServerSettings.with { $0.auditRetentionDays = -1 }, "--audit-retention-days",
                "-1 days is outside 0 (no audit log) to 3650"
            ),
            (
                ServerSettings.with { $0.auditRetentionDays = 3651 }, "--audit-retention-days",
                "3651 days is outside 0 (no audit log) to 3650"
            ),
            (
                ServerSettings.with { $0.maxConnectionsPerAddress = 0 }, "--max-connections-per-address",
                "0 is outside 1 to 100,000"
            ),
            (
                ServerSettings.with { $0.maxConnectionsPerAddress = 100_001 }, "--max-connections-per-address",
                "100001 is outside 1 to 100,000"
            ),
            (
                ServerSettings.withAccessTokens { $0.accessTokenLifetime = 29 }, "--access-token-lifetime",
                "29 seconds is outside 30 seconds to one day"
            ),
            (
                ServerSettings.withAccessTokens { $0.accessTokenLifetime = 86_401 }, "--access-token-lifetime",
                "86401 seconds is outside 30 seconds to one day"
            ),
            (
                ServerSettings.withAccessTokens { $0.signingKeyRotation = 0 }, "--signing-key-rotation",
                "0 days is outside 1 to 365"
            ),
            (
                ServerSettings.withAccessTokens { $0.signingKeyRotation = 366 }, "--signing-key-rotation",
                "366 days is outside 1 to 365"
            ),
        ])
    func numbersOutOfRange(_ settings: ServerSettings, _ setting: String, _ message: String) {
        #expect(throws: ConfigurationError(setting, message)) { try ServerConfiguration(settings) }
    }

    @Test("every setting in docs/SERVER.md's table is read from its environment variable and overrides a lower layer")
    func everySettingFromTheEnvironment() throws {
        let docs = try String(
            contentsOf: ErrorTableTests.root.appendingPathComponent("docs/SERVER.md"), encoding: .utf8)
        let variable = try Regex(#"`(LATCHKEY_[A-Z0-9_]+)`"#)
        let names = docs.split(separator: "\n").filter { $0.hasPrefix("| `--") }.flatMap { row in
            row.split(separator: "|")[1].matches(of: variable).compactMap { $0.output[1].substring.map(String.init) }
        }
        let settings = try ServerSettings(environment: Dictionary(names.map { ($0, "1") }) { first, _ in first })
        let unset = Mirror(reflecting: settings).children.filter { Mirror(reflecting: $0.value).children.isEmpty }
        #expect(unset.compactMap(\.label) == [], "settings no documented variable gives")
        #expect(ServerSettings().overriding(settings) == settings)
        #expect(settings.overriding(ServerSettings()) == settings)
        var flags = ServerSettings()
        flags.port = 2
        #expect(settings.overriding(flags).port == 2)
        #expect(flags.overriding(settings).port == 1)
    }

    @Test func badEnvironmentAndFilesAreRefused() throws {
        #expect(throws: ConfigurationError.self) { try ServerSettings(environment: ["LATCHKEY_PORT": "eighty"]) }
        #expect(throws: ConfigurationError("LATCHKEY_ACCEPT_BASE64URL_TEXT_CHALLENGE", "'maybe' is not true or false"))
        {
            try ServerSettings(environment: ["LATCHKEY_ACCEPT_BASE64URL_TEXT_CHALLENGE": "Maybe"])
        }
        #expect(throws: ConfigurationError.self) { try ServerSettings(environment: ["LATCHKEY_EVENT_LOOPS": "two"]) }
        #expect(throws: ConfigurationError.self) { try ServerSettings(configFile: "/nonexistent/latchkey.json") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-config-\(UUID().uuidString).json")
        try Data(#"{"prot": 9000}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            _ = try ServerSettings(configFile: file.path)
        } throws: { error in
            (error as? ConfigurationError)?.message.contains("unknown setting 'prot'") == true
        }
    }
}

extension ServerSettings {
    static func with(_ change: (inout ServerSettings) -> Void) -> ServerSettings {
        var settings = ServerSettings()
        change(&settings)
        return settings
    }

    /// Settings with access tokens on (an audience and the secrets key they need), then `change`.
    static func withAccessTokens(_ change: (inout ServerSettings) -> Void) -> ServerSettings {
        with {
            $0.accessTokenAudience = "api"
            $0.secretsKey = Data(repeating: 7, count: 32).base64EncodedString()
            change(&$0)
        }
    }
}
