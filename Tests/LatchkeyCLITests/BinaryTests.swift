import Foundation
import LatchkeyTestSupport
import Testing
import WebAuthn

/// Runs the built `latchkey` executable as a separate process: real exit statuses, real standard streams.
@Suite("the latchkey binary")
struct BinaryTests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String

        func json() throws -> JSONValue {
            try JSONDecoder().decode(JSONValue.self, from: Data(stdout.utf8))
        }
    }

    /// The executable SwiftPM built next to this test bundle's resources.
    static func executable() throws -> URL {
        let url = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("latchkey")
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path),
            "build the latchkey executable first (swift build): \(url.path)")
        return url
    }

    static func run(_ arguments: [String], stdin: [UInt8] = []) async throws -> Run {
        let (status, stdout, stderr) = try await ChildProcess.run(
            try executable().path, arguments: arguments, input: Data(stdin))
        return Run(
            status: status, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func authenticationArguments(challenge: String) -> [String] {
        [
            "verify", "authentication", "--credential", "-",
            "--challenge", challenge, "--origin", "https://example.org", "--rp-id", "example.org",
            "--public-key",
            "pQECAyYgASFYIBzyfyXaWRIIpCOcLjJPEE9YVSVHmint7t2DD0jneurlIlggWeS32mwBBuIGzjkMk6uYoVpew4h-V_DMK-zoA7kgxCM",
            "--sign-count", "0",
        ]
    }

    @Test("verify authentication reads standard input and exits 0 with the result JSON on stdout")
    func success() async throws {
        let run = try await Self.run(
            Self.authenticationArguments(challenge: "sRBvpGpXvvF4FRHAVX3ImKA0E9Xw8X0kRjDBlMfhrbU"),
            stdin: try CLIHarness.fixtureBytes("packed-es256.authentication.json")
        )
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try run.json()["credentialId"]?.stringValue == "yab1s0YtAoc_6gxWhiI0-Z8IFygITlEbt3YCAaiQVKU")
        #expect(run.stdout.contains("\n  \""), "output is pretty-printed")
    }

    @Test("a verification failure exits 1 with the error JSON on stdout")
    func verificationFailure() async throws {
        let run = try await Self.run(
            Self.authenticationArguments(challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            stdin: try CLIHarness.fixtureBytes("packed-es256.authentication.json")
        )
        #expect(run.status == 1)
        #expect(try run.json()["error"]?["code"]?.stringValue == "challengeMismatch")
    }

    @Test("a bad flag value exits 2 with a usage code; a missing option keeps ArgumentParser's 64")
    func usageFailures() async throws {
        let arguments = Self.authenticationArguments(challenge: "sRBvpGpXvvF4FRHAVX3ImKA0E9Xw8X0kRjDBlMfhrbU")
        let bad = try await Self.run(try arguments.setting("--sign-count", to: "many"))
        #expect(bad.status == 2)
        #expect(try bad.json()["error"]?["code"]?.stringValue == "usage.invalidSignCount")

        let missing = try await Self.run(["verify", "registration"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--credential"))
    }

    @Test("inspect prints the detected kind")
    func inspect() async throws {
        let run = try await Self.run(["inspect", "v6vDdDKViwYzYNOtZGHJxHNa5_jt1GWSpeDwFFKy5LUJAAAAAA"])
        #expect(run.status == 0)
        #expect(try run.json()["kind"]?.stringValue == "authenticatorData")
    }
}
