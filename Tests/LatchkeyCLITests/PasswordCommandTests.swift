import Foundation
import Hummingbird
import HummingbirdTesting
import LatchkeyServer
import LatchkeyTestSupport
import Logging
import Testing
import WebAuthn

@testable import LatchkeyCLI

/// `latchkey passkey register|login --password` against a real server on loopback (SQLite in a temporary file).
@Suite("latchkey passkey --password")
struct PasswordCommandTests {
    private func withServer(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        var settings = ServerSettings()
        settings.rateLimit = 0
        settings.database = scratch.path("server.sqlite")
        var configuration = try ServerConfiguration(settings)
        configuration.passwordHashing = ScryptParameters(logN: 10, blockSize: 8, parallelization: 1)
        var logger = Logger(label: "latchkey.password.test")
        logger.logLevel = .error
        let app = ServerApplication.make(
            configuration: configuration, store: try configuration.database.makeStore(), logger: logger)
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))")
        }
    }

    /// Where a test's credential and password files go, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-cli")

    private func temporary(_ name: String) -> String {
        scratch.path("\(UUID().uuidString)/\(name)")
    }

    private func passwordFile(_ text: String) throws -> String {
        let path = temporary("password")
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("register and login with --password-file, the upgrade to a local passkey, then a passkey login")
    func registerLoginUpgrade() async throws {
        try await withServer { server in
            let store = temporary("credentials")
            let common = ["--server", server, "--origin", "http://localhost:8080", "--store", store]
            let file = try passwordFile("correct horse battery staple\nsecond line is ignored\n")

            let registered = await CLIHarness.run(
                ["passkey", "register", "--username", "alice", "--password", "--password-file", file] + common)
            #expect(registered.status == 0, "\(registered.output)")
            let report = try registered.json()
            #expect(report["status"]?.stringValue == "registered")
            #expect(report["method"]?.stringValue == "password")
            #expect(report["passkeyUpgrade"]?["state"]?.stringValue == "offered")

            let wrong = try passwordFile("not the password at all")
            let refused = await CLIHarness.run(
                ["passkey", "login", "--username", "alice", "--password", "--password-file", wrong] + common)
            #expect(refused.status == 1)
            #expect(refused.errorCode == "password.invalid")

            let upgraded = await CLIHarness.run(
                ["passkey", "login", "--username", "alice", "--password", "--password-file", file, "--upgrade"] + common
            )
            #expect(upgraded.status == 0, "\(upgraded.output)")
            let upgrade = try upgraded.json()["passkeyUpgrade"]
            #expect(upgrade?["state"]?.stringValue == "completed")
            let credentialID = try #require(upgrade?["credentialID"]?.stringValue)

            // The new local passkey signs in; the next password sign-in offers no upgrade.
            let passkey = await CLIHarness.run(["passkey", "login", "--username", "alice"] + common)
            #expect(passkey.status == 0, "\(passkey.output)")
            #expect(try passkey.json()["credentialID"]?.stringValue == credentialID)
            let again = await CLIHarness.run(
                ["passkey", "login", "--username", "alice", "--password", "--password-file", file] + common)
            #expect(try again.json()["passkeyUpgrade"]?["state"]?.stringValue == "none")
        }
    }

    @Test("serve --password-sign-in on|off")
    func serveFlag() throws {
        #expect(try ServeFlags.parse(["--password-sign-in", "off"]).settings.passwordSignIn == false)
        #expect(try ServeFlags.parse(["--password-sign-in", "on"]).settings.passwordSignIn == true)
        #expect(try ServeFlags.parse([]).settings.passwordSignIn == nil)
        #expect(throws: (any Error).self) { try ServeFlags.parse(["--password-sign-in", "maybe"]) }
    }

    @Test("flag misuse and a missing password are usage errors (exit 2), before any request")
    func refusals() async throws {
        let common = ["--server", "http://127.0.0.1:1", "--store", temporary("credentials")]
        let cases: [([String], String)] = [
            (["passkey", "login", "--username", "a", "--password-file", "/nonexistent"], "usage.passwordFlags"),
            (["passkey", "register", "--username", "a", "--upgrade"], "usage.passwordFlags"),
            (["passkey", "login", "--password", "--password-file", "/nonexistent"], "usage.usernameMissing"),
            (
                ["passkey", "login", "--username", "a", "--password", "--password-file", "/nonexistent"],
                "io.passwordFile"
            ),
            (
                ["passkey", "register", "--username", "a", "--password", "--profile", "conformance"],
                "usage.passwordProfile"
            ),
            (
                ["passkey", "register", "--username", "a", "--password", "--password-file", try passwordFile("\n")],
                "usage.passwordMissing"
            ),
        ]
        for (arguments, code) in cases {
            let result = await CLIHarness.run(arguments + common)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.errorCode == code, "\(arguments): \(result.output)")
        }
    }

    @Test("the built binary reads $LATCHKEY_PASSWORD (never a flag value)")
    func environment() async throws {
        try await withServer { server in
            let store = temporary("credentials")
            func run(_ arguments: [String], password: String?) async throws -> (Int32, String) {
                var environment = ProcessInfo.processInfo.environment
                environment["LATCHKEY_PASSWORD"] = password
                let (status, output, _) = try await ChildProcess.run(
                    try BinaryTests.executable().path,
                    arguments: arguments + ["--server", server, "--origin", "http://localhost:8080", "--store", store],
                    environment: environment
                )
                return (status, String(decoding: output, as: UTF8.self))
            }
            let (registered, registerOutput) = try await run(
                ["passkey", "register", "--username", "bob", "--password"],
                password: "a passphrase from the environment")
            #expect(registered == 0, "\(registerOutput)")
            let (signedIn, signInOutput) = try await run(
                ["passkey", "login", "--username", "bob", "--password"], password: "a passphrase from the environment")
            #expect(signedIn == 0, "\(signInOutput)")
            #expect(signInOutput.contains("signedIn"), "\(signInOutput)")
            let (missing, missingOutput) = try await run(
                ["passkey", "login", "--username", "bob", "--password"], password: nil)
            #expect(missing == 2)
            #expect(missingOutput.contains("usage.passwordMissing"))
        }
    }
}
