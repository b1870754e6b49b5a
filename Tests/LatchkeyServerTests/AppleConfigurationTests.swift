import AppleSignIn
import Crypto
import Foundation
import LatchkeyServer
import Testing

/// The Sign in with Apple settings: off when absent, on when complete, refused (naming the setting) when partial or invalid.
@Suite("Sign in with Apple configuration")
struct AppleConfigurationTests {
    /// A directory with a real `.p8` key and a secrets-key file; removed after `body`.
    private func withKeyFiles(_ body: (_ keyPath: String, _ secretsFile: String, _ directory: URL) throws -> Void)
        throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-apple-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("AuthKey.p8").path
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyPath))
        let secretsFile = directory.appendingPathComponent("secrets.key").path
        try Data((Data((0..<32).map { UInt8($0) }).base64EncodedString() + "\n").utf8).write(
            to: URL(fileURLWithPath: secretsFile))
        try body(keyPath, secretsFile, directory)
    }

    private static let secretsKey = Data((0..<32).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }).base64EncodedString()

    private func complete(_ keyPath: String) -> ServerSettings {
        ServerSettings.with {
            $0.appleTeamID = "TEAM123456"
            $0.appleKeyID = "KEY1234567"
            $0.applePrivateKey = keyPath
            $0.appleClientIDs = ["dev.latchkey.app"]
            $0.secretsKey = Self.secretsKey
        }
    }

    @Test(arguments: [9, 3601])
    func aTokenAgeOutsideItsRangeIsRefused(_ age: Int) throws {
        try withKeyFiles { keyPath, _, _ in
            var settings = complete(keyPath)
            settings.appleTokenMaxAge = age
            #expect(
                throws: ConfigurationError("--apple-token-max-age", "\(age) seconds is outside 10 seconds to one hour")
            ) {
                try ServerConfiguration(settings)
            }
        }
    }

    @Test func absentMeansOff() throws {
        let configuration = try ServerConfiguration()
        #expect(configuration.apple == nil)
        #expect(AppleConfiguration.offLine.hasPrefix("Sign in with Apple: off (set --apple-client-id"))
    }

    @Test func aCompleteConfigurationTurnsItOn() throws {
        try withKeyFiles { keyPath, secretsFile, _ in
            var settings = complete(keyPath)
            settings.appleServicesID = "dev.latchkey.web"
            settings.appleRedirectURI = "https://example.com/v1/apple/callback"
            let apple = try #require(try ServerConfiguration(settings).apple)
            #expect(apple.bundleIDs == [AppleBundleID("dev.latchkey.app")])
            #expect(apple.web?.servicesID == AppleServicesID("dev.latchkey.web"))
            #expect(apple.clientIDs == ["dev.latchkey.app", "dev.latchkey.web"])
            #expect(apple.endpoints == .production)
            #expect(apple.description.hasPrefix("Sign in with Apple: on"))
            #expect(!apple.description.contains(Self.secretsKey), "the key is never printed")

            settings.secretsKey = nil
            settings.secretsKeyFile = secretsFile
            #expect(try ServerConfiguration(settings).apple != nil, "the key can come from a file")
        }
    }

    @Test func theEnvironmentAndTheConfigFileCarryTheAppleSettings() throws {
        try withKeyFiles { keyPath, secretsFile, directory in
            let file = directory.appendingPathComponent("latchkey.json")
            try Data(
                #"{"appleTeamID": "TEAM123456", "appleKeyID": "KEY1234567", "applePrivateKey": "\#(keyPath)", "appleBaseURL": "http://127.0.0.1:9999"}"#
                    .utf8
            )
            .write(to: file)
            let settings = try ServerSettings.load(
                flags: ServerSettings(), configFile: file.path,
                environment: [
                    "LATCHKEY_APPLE_CLIENT_IDS": "dev.latchkey.app, dev.latchkey.watch",
                    "LATCHKEY_SECRETS_KEY_FILE": secretsFile,
                ])
            let apple = try #require(try ServerConfiguration(settings).apple)
            #expect(apple.bundleIDs.map(\.rawValue) == ["dev.latchkey.app", "dev.latchkey.watch"])
            #expect(apple.endpoints.baseURL == "http://127.0.0.1:9999")
            #expect(apple.web == nil)
        }
    }

    @Test func partialOrInvalidConfigurationsAreRefusedNamingTheSetting() throws {
        try withKeyFiles { keyPath, _, directory in
            let notAKey = directory.appendingPathComponent("not-a-key.p8").path
            try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(
                to: URL(fileURLWithPath: notAKey))
            let cases: [(ServerSettings, String)] = [
                (ServerSettings.with { $0.appleTeamID = "TEAM123456" }, "--apple-team-id"),
                (complete(keyPath).changing { $0.secretsKey = nil }, "--secrets-key"),
                (complete(keyPath).changing { $0.secretsKey = Data(count: 16).base64EncodedString() }, "--secrets-key"),
                (complete(keyPath).changing { $0.secretsKey = "not base64!" }, "--secrets-key"),
                (complete(keyPath).changing { $0.secretsKey = Data(count: 32).base64EncodedString() }, "--secrets-key"),
                (
                    complete(keyPath).changing { $0.secretsKey = Data(repeating: 7, count: 32).base64EncodedString() },
                    "--secrets-key"
                ),
                (
                    complete(keyPath).changing {
                        $0.secretsKey = Data((0..<32).map { UInt8($0 % 4) }).base64EncodedString()
                    }, "--secrets-key"
                ),
                (complete(keyPath).changing { $0.secretsKeyFile = "/nonexistent/secrets.key" }, "--secrets-key"),
                (
                    complete(keyPath).changing {
                        $0.secretsKey = nil
                        $0.secretsKeyFile = "/nonexistent/secrets.key"
                    }, "--secrets-key-file"
                ),
                (complete(keyPath).changing { $0.applePrivateKey = "/nonexistent/AuthKey.p8" }, "--apple-private-key"),
                (complete(keyPath).changing { $0.applePrivateKey = notAKey }, "--apple-private-key"),
                (complete(keyPath).changing { $0.appleTeamID = nil }, "--apple-team-id"),
                (complete(keyPath).changing { $0.appleKeyID = nil }, "--apple-key-id"),
                (complete(keyPath).changing { $0.appleClientIDs = ["dev latchkey"] }, "--apple-client-id"),
                (complete(keyPath).changing { $0.appleServicesID = "dev.latchkey.web" }, "--apple-redirect-uri"),
                (
                    complete(keyPath).changing { $0.appleRedirectURI = "https://example.com/v1/apple/callback" },
                    "--apple-services-id"
                ),
                (
                    complete(keyPath).changing {
                        $0.appleServicesID = "dev.latchkey.web"
                        $0.appleRedirectURI = "http://example.com/cb"
                    }, "--apple-redirect-uri"
                ),
                (complete(keyPath).changing { $0.appleBaseURL = "appleid.apple.com" }, "--apple-base-url"),
            ]
            for (settings, setting) in cases {
                #expect {
                    _ = try ServerConfiguration(settings)
                } throws: { error in
                    guard let error = error as? ConfigurationError else { return false }
                    return error.setting == setting && !error.message.isEmpty
                        && !error.description.contains(Self.secretsKey)
                }
            }
        }
    }
}

extension ServerSettings {
    func changing(_ change: (inout ServerSettings) -> Void) -> ServerSettings {
        var settings = self
        change(&settings)
        return settings
    }
}
