import Foundation
import LatchkeyServer
import LatchkeyTestSupport
import Testing

@testable import LatchkeyCLI

/// `latchkey serve`: every flag lands in its setting, and each way of failing to start has its code and status.
@Suite("latchkey serve")
struct ServeCommandTests {
    let scratch = ScratchDirectory(prefix: "latchkey-serve")

    @Test("each flag sets its own setting")
    func flagsMapToSettings() throws {
        let serve = try Serve.parse([
            "--host", "0.0.0.0", "--port", "9000", "--database", "db.sqlite", "--rp-id", "example.com", "--rp-name",
            "Example",
            "--origin", "https://a.example.com", "--origin", "https://b.example.com", "--apple-app-id",
            "TEAM123456.com.example",
            "--android-app", "com.example:AA", "--related-origin", "https://other.example", "--user-verification",
            "required",
            "--attestation", "direct", "--rate-limit", "7", "--trusted-proxy", "10.0.0.0/8",
            "--accept-base64url-text-challenge",
            "--body-limit", "4096", "--session-lifetime", "600", "--ceremony-lifetime", "60", "--metadata", "blob.jwt",
            "--metadata-trust-root", "root.pem", "--attestation-policy", "trusted", "--apple-team-id", "TEAM123456",
            "--apple-key-id", "KEY1234567", "--apple-private-key", "key.p8", "--apple-client-id", "com.example.app",
            "--apple-services-id", "com.example.web", "--apple-redirect-uri", "https://example.com/v1/apple/callback",
            "--apple-base-url", "http://127.0.0.1:1", "--secrets-key", "c2VjcmV0", "--secrets-key-file", "secrets.key",
            "--metrics-token-file", "metrics.token",
            "--event-loops", "3",
        ])
        var expected = ServerSettings()
        expected.host = "0.0.0.0"
        expected.port = 9000
        expected.database = "db.sqlite"
        expected.rpID = "example.com"
        expected.rpName = "Example"
        expected.origins = ["https://a.example.com", "https://b.example.com"]
        expected.appleAppIDs = ["TEAM123456.com.example"]
        expected.androidApps = ["com.example:AA"]
        expected.relatedOrigins = ["https://other.example"]
        expected.userVerification = "required"
        expected.attestation = "direct"
        expected.rateLimit = 7
        expected.trustedProxies = ["10.0.0.0/8"]
        expected.acceptBase64URLTextChallenge = true
        expected.bodyLimit = 4096
        expected.sessionLifetime = 600
        expected.ceremonyLifetime = 60
        expected.metadata = "blob.jwt"
        expected.metadataTrustRoot = "root.pem"
        expected.attestationPolicy = "trusted"
        expected.appleTeamID = "TEAM123456"
        expected.appleKeyID = "KEY1234567"
        expected.applePrivateKey = "key.p8"
        expected.appleClientIDs = ["com.example.app"]
        expected.appleServicesID = "com.example.web"
        expected.appleRedirectURI = "https://example.com/v1/apple/callback"
        expected.appleBaseURL = "http://127.0.0.1:1"
        expected.secretsKey = "c2VjcmV0"
        expected.secretsKeyFile = "secrets.key"
        expected.metricsTokenFile = "metrics.token"
        expected.eventLoops = 3
        #expect(serve.flags.settings == expected)
        #expect(
            try Serve.parse([]).flags.settings == ServerSettings(),
            "unset flags leave every setting to the other layers")
    }

    @Test(
        "the event loops serve sizes SwiftNIO's group with come from the flag, then the environment, then the config file"
    )
    func eventLoopsBeforeTheRuntimeStarts() throws {
        let config = try scratch.file(Array(#"{"eventLoops": 4}"#.utf8), suffix: ".json")
        #expect(Latchkey.serveEventLoops(["--config", config], environment: [:]) == 4)
        #expect(Latchkey.serveEventLoops(["--config", config], environment: ["LATCHKEY_EVENT_LOOPS": "3"]) == 3)
        #expect(
            Latchkey.serveEventLoops(
                ["--config", config, "--event-loops", "1"], environment: ["LATCHKEY_EVENT_LOOPS": "3"]) == 1)
        #expect(
            Latchkey.serveEventLoops(["--port", "0"], environment: [:]) == nil,
            "unset: SwiftNIO's default, one per core")
        // What the command refuses when it runs leaves the group alone here.
        #expect(Latchkey.serveEventLoops(["--event-loops", "0"], environment: [:]) == nil)
        #expect(Latchkey.serveEventLoops(["--event-loops", "many"], environment: [:]) == nil)
        #expect(Latchkey.serveEventLoops([], environment: ["LATCHKEY_EVENT_LOOPS": "two"]) == nil)
        #expect(Latchkey.serveEventLoops(["--help"], environment: ["LATCHKEY_EVENT_LOOPS": "2"]) == nil)
    }

    @Test("a setting out of range is refused before the server starts")
    func eventLoopsOutOfRange() async {
        let result = await CLIHarness.run(["serve", "--event-loops", "0"])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.configuration", "\(result.output)")
        #expect(result.output.contains("--event-loops"), "\(result.output)")
    }

    @Test("a secrets key given as a flag is warned about; a key file is not")
    func secretsKeyFlagWarns() throws {
        let flag = try Serve.parse(["--secrets-key", "c2VjcmV0"]).flags.warnings
        #expect(flag.count == 1 && flag[0].contains("--secrets-key-file"))
        #expect(try Serve.parse(["--secrets-key-file", "secrets.key"]).flags.warnings.isEmpty)
    }

    @Test("a setting the server cannot use is usage.configuration, exit 2")
    func badConfiguration() async {
        let result = await CLIHarness.run(["serve", "--port", "70000"])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.configuration", "\(result.output)")
        let level = await CLIHarness.run(["serve", "--log-level", "loud"])
        #expect(level.status == 2)
        #expect(level.errorCode == "usage.logLevel", "\(level.output)")
    }

    @Test("a database that cannot be opened is server.database, exit 1")
    func unopenableDatabase() async {
        let result = await CLIHarness.run(["serve", "--port", "0", "--database", "/proc/latchkey/store.sqlite"])
        #expect(result.status == 1)
        #expect(result.errorCode == "server.database", "\(result.output)")
    }

    @Test("a metadata BLOB that does not verify stops the start: server.metadata, exit 1")
    func unverifiableMetadata() async throws {
        // The test BLOB chains to the tests' own root, not to the FIDO root the server expects by default.
        let blob = try CLIHarness.fixture("mds-test-blob.jwt")
        let result = await CLIHarness.run(["serve", "--port", "0", "--metadata", blob])
        #expect(result.status == 1)
        #expect(result.errorCode == "server.metadata", "\(result.output)")
    }

    @Test("start-up error codes are server.<setting> in camel case")
    func codes() {
        #expect(Serve.code(for: ConfigurationError("--database", "x")) == "server.database")
        #expect(Serve.code(for: ConfigurationError("--metadata-trust-root", "x")) == "server.metadataTrustRoot")
    }
}
