import AppleSignIn
import Crypto
import Foundation
import LatchkeyTestSupport
import Testing

@Suite("latchkey apple client-secret")
struct AppleClientSecretTests {
    /// Files a test writes, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-cli")

    let key = P256.Signing.PrivateKey()

    func arguments(keyFile: String, days: String = "30") -> [String] {
        [
            "apple", "client-secret", "--team-id", "TEAM123456", "--key-id", "KEY1234567",
            "--client-id", "dev.latchkey.web", "--key", keyFile, "--days", days,
        ]
    }

    @Test func signsASecretAppleWouldAccept() async throws {
        let file = try scratch.file(Array(key.pemRepresentation.utf8), suffix: ".p8")
        let result = await CLIHarness.run(arguments(keyFile: file))
        #expect(result.status == 0)
        let secret = try #require(try result.json()["clientSecret"]?.stringValue)
        let jws = try CompactJWS(secret)
        #expect(jws.header == JWSHeader(alg: "ES256", kid: "KEY1234567"))
        let claims = try JSONDecoder().decode(ClientSecretClaims.self, from: Data(jws.payload))
        #expect(
            claims.iss == "TEAM123456" && claims.sub == "dev.latchkey.web" && claims.aud == "https://appleid.apple.com")
        #expect(claims.exp - claims.iat == 30 * 86_400)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
        #expect(key.publicKey.isValidSignature(signature, for: jws.signingInput))
    }

    @Test func readsTheKeyFromStandardInput() async throws {
        let result = await CLIHarness.run(arguments(keyFile: "-"), stdin: Array(key.pemRepresentation.utf8))
        #expect(result.status == 0)
        #expect(try result.json()["clientSecret"]?.stringValue != nil)
    }

    @Test(arguments: ["0", "181", "400"])
    func rejectsLifetimesOutsideTheLimit(days: String) async throws {
        let file = try scratch.file(Array(key.pemRepresentation.utf8), suffix: ".p8")
        let result = await CLIHarness.run(arguments(keyFile: file, days: days))
        #expect(result.status == 2)
        #expect(result.errorCode == "usage.invalidDays")
    }

    @Test func rejectsAFileThatIsNotAP8Key() async throws {
        let file = try scratch.file(Array("not a key".utf8), suffix: ".p8")
        let result = await CLIHarness.run(arguments(keyFile: file))
        #expect(result.status == 2)
        #expect(result.errorCode == "apple.privateKeyInvalid")
        let missing = await CLIHarness.run(arguments(keyFile: "/nonexistent/AuthKey.p8"))
        #expect(missing.errorCode == "io.unreadable")
    }
}
