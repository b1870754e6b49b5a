import Foundation
import LatchkeyTestSupport
import Testing

@testable import LatchkeyCLI

/// The `latchkey passkey` failures that need no server, each with its code and status.
@Suite("latchkey passkey: refusals")
struct PasskeyCommandTests {
    /// Where a test's credential files go, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-cli")

    private func temporaryStore() -> String {
        scratch.path("\(UUID().uuidString)/credentials")
    }

    @Test(
        "a server that is not an http(s) URL is usage.badServer",
        arguments: ["ftp://example.com", "example.com", "http://"])
    func badServer(_ server: String) async {
        let result = await CLIHarness.run(["passkey", "login", "--server", server, "--store", temporaryStore()])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.badServer", "\(result.output)")
    }

    @Test("an ID that is not base64url is usage.badCredentialID")
    func badCredentialID() async {
        let result = await CLIHarness.run([
            "passkey", "remove", "%%%", "--server", "http://localhost:1", "--store", temporaryStore(),
        ])
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.badCredentialID", "\(result.output)")
    }

    @Test("removing an unknown local passkey with the conformance profile is passkey.notFound")
    func unknownLocalPasskey() async {
        let result = await CLIHarness.run([
            "passkey", "remove", "AAAA", "--server", "http://localhost:1", "--profile", "conformance", "--store",
            temporaryStore(),
        ])
        #expect(result.status == 1)
        #expect(result.errorCode == "passkey.notFound", "\(result.output)")
    }

    @Test("a store directory that cannot be made is io.storeDirectory")
    func storeDirectory() async {
        let result = await CLIHarness.run([
            "passkey", "list", "--server", "http://localhost:1", "--store", "/proc/latchkey/credentials",
        ])
        #expect(result.status != 0)
        #expect(result.errorCode == "io.storeDirectory", "\(result.output)")
    }

    @Test("the server URL gives a lowercased origin, and passkeys for the RP ID or a parent domain are usable there")
    func serverURL() throws {
        let server = try ServerURL("HTTPS://Login.Example.COM:8443/path")
        #expect(server.origin == "https://login.example.com:8443")
        #expect(server.isOn(rpID: "login.example.com"))
        #expect(server.isOn(rpID: "example.com"))
        #expect(!server.isOn(rpID: "other.com"))
        #expect(!server.isOn(rpID: "ample.com"), "a suffix that is not a whole label is another domain")
    }
}
