import Foundation
import LatchkeyTestSupport
import Testing
import WebAuthn

@Suite("latchkey metadata")
struct MetadataCommandTests {
    /// Files a test writes, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-cli")

    static let at = ["--at", "2027-01-01T00:00:00Z"]

    static func verifyArguments(_ blob: String, _ extra: [String] = []) throws -> [String] {
        ["metadata", "verify", blob, "--trust-root", try CLIHarness.fixture("mds-test-root.pem")] + extra
    }

    @Test("verify prints the BLOB's number, nextUpdate and entry count")
    func verify() async throws {
        let result = await CLIHarness.run(
            try Self.verifyArguments(try CLIHarness.fixture("mds-test-blob.jwt"), Self.at))
        #expect(result.status == 0, "\(result.output)")
        let json = try result.json()
        #expect(json["number"]?.numberValue == 7)
        #expect(json["entries"]?.numberValue == 2)
        #expect(json["nextUpdate"]?.stringValue == "2030-01-01T00:00:00Z")
        #expect(json["protocolFamilies"]?["fido2"]?.numberValue == 2)
    }

    @Test("verify reads the BLOB from standard input with -")
    func verifyStandardInput() async throws {
        let result = await CLIHarness.run(
            try Self.verifyArguments("-", Self.at), stdin: try CLIHarness.fixtureBytes("mds-test-blob.jwt"))
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("without --trust-root the FIDO root applies, and a test BLOB fails metadata.untrustedChain")
    func defaultRoot() async throws {
        let result = await CLIHarness.run(
            ["metadata", "verify", try CLIHarness.fixture("mds-test-blob.jwt")] + Self.at)
        #expect(result.status == 1)
        #expect(result.errorCode == "metadata.untrustedChain")
    }

    @Test("a changed signature fails metadata.badSignature")
    func badSignature() async throws {
        var bytes = try CLIHarness.fixtureBytes("mds-test-blob.jwt")
        while bytes.last == 0x0a { bytes.removeLast() }
        let last = bytes.count - 3
        bytes[last] = bytes[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let path = try scratch.file(bytes, suffix: ".jwt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = await CLIHarness.run(try Self.verifyArguments(path, Self.at))
        #expect(result.status == 1)
        #expect(result.errorCode == "metadata.badSignature")
    }

    @Test("after nextUpdate the BLOB fails metadata.stale")
    func stale() async throws {
        let result = await CLIHarness.run(
            try Self.verifyArguments(try CLIHarness.fixture("mds-test-blob.jwt"), ["--at", "2030-06-01T00:00:00Z"]))
        #expect(result.status == 1)
        #expect(result.errorCode == "metadata.stale")
    }

    @Test("a file that is not a CRL is an io error")
    func badCRL() async throws {
        let result = await CLIHarness.run(
            try Self.verifyArguments(
                try CLIHarness.fixture("mds-test-blob.jwt"),
                Self.at + ["--crl", try CLIHarness.fixture("mds-test-root.pem")]
            ))
        #expect(result.status == 2)
        #expect(result.errorCode == "io.invalidCRL")
    }

    @Test("lookup in a BLOB prints the statement and the current status")
    func lookupInBLOB() async throws {
        let blob = try CLIHarness.fixture("mds-test-blob.jwt")
        let root = try CLIHarness.fixture("mds-test-root.pem")
        let certified = await CLIHarness.run(
            ["metadata", "lookup", "4c0cf95d2f4043b5ba424c83a11c04ba", "--blob", blob, "--trust-root", root] + Self.at
        )
        #expect(certified.status == 0, "\(certified.output)")
        let json = try certified.json()
        #expect(json["name"]?.stringValue == "Latchkey Test Key")
        #expect(json["source"]?.stringValue == "metadata")
        #expect(json["status"]?.stringValue == "FIDO_CERTIFIED_L1")
        #expect(json["compromised"]?.boolValue == false)
        #expect(json["authenticatorVersion"]?.numberValue == 5)

        let compromised = try await CLIHarness.run(
            ["metadata", "lookup", "0badc0de-0000-4000-8000-000000000001", "--blob", blob, "--trust-root", root]
                + Self.at
        ).json()
        #expect(compromised["status"]?.stringValue == "USER_VERIFICATION_BYPASS")
        #expect(compromised["compromised"]?.boolValue == true)
    }

    @Test("lookup without a BLOB names passkey providers from the built-in table")
    func lookupBuiltIn() async throws {
        let result = await CLIHarness.run(["metadata", "lookup", "fbfc3007-154e-4ecc-8c0b-6e020557d7bd"])
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["name"]?.stringValue == "iCloud Keychain")
        #expect(json["source"]?.stringValue == "built-in")
        let unknown = try await CLIHarness.run(["metadata", "lookup", "01020304-0506-0708-090a-0b0c0d0e0f10"]).json()
        #expect(unknown["name"] == nil || unknown["name"] == .null)
    }

    @Test("lookup of text that is not an AAGUID is a usage error")
    func lookupBadAAGUID() async {
        let result = await CLIHarness.run(["metadata", "lookup", "not-an-aaguid"])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.invalidAAGUID")
    }
}
