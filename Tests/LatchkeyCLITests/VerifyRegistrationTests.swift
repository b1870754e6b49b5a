import LatchkeyTestSupport
import Testing
import WebAuthn

@Suite("latchkey verify registration")
struct VerifyRegistrationTests {
    /// Files a test writes, removed after it.
    let scratch = ScratchDirectory(prefix: "latchkey-cli")

    /// `verify registration` of a fixture from the W3C vectors (origin https://example.org, RP ID example.org).
    static func arguments(_ fixture: String, challenge: String, _ extra: [String] = []) throws -> [String] {
        [
            "verify", "registration", "--credential", try CLIHarness.fixture(fixture), "--challenge", challenge,
            "--origin", "https://example.org", "--rp-id", "example.org",
        ] + extra
    }

    /// w3c-packed-es256-reg: packed with an x5c chain to the W3C test-vector CA, judged at 2024-01-02.
    static func packedArguments(_ extra: [String] = []) throws -> [String] {
        try arguments(
            "packed-es256.registration.json", challenge: "wRhKX934BF4T3Ef1S2H1pla2ZrWQGPFthw6SVumVIBI",
            ["--at", "2024-01-02T00:00:00Z"] + extra
        )
    }

    @Test("a packed registration with its trust anchor verifies as trusted")
    func trustedWithAnchor() async throws {
        let result = await CLIHarness.run(
            try Self.packedArguments(["--trust-anchor", try CLIHarness.fixture("w3c-test-vectors-ca.pem")]))
        #expect(result.status == 0, "\(result.output)")
        let json = try result.json()
        #expect(json["credentialId"]?.stringValue == "yab1s0YtAoc_6gxWhiI0-Z8IFygITlEbt3YCAaiQVKU")
        #expect(json["aaguid"]?.stringValue == "876ca4f5-2071-c3e9-b255-09ef2cdf7ed6")
        #expect(json["algorithm"]?["name"]?.stringValue == "ES256")
        #expect(json["algorithm"]?["number"]?.numberValue == -7)
        #expect(json["signCount"]?.numberValue == 0)
        #expect(json["attestation"]?["format"]?.stringValue == "packed")
        #expect(json["attestation"]?["type"]?.stringValue == "basic")
        #expect(json["attestation"]?["trusted"]?.boolValue == true)
        #expect(
            json["attestation"]?["certificates"]?[0]?["subject"]?.stringValue?.contains("CN=WebAuthn test vectors")
                == true)
        #expect(json["attestation"]?["certificates"]?[0]?["notBefore"]?.stringValue == "2024-01-01T00:00:00Z")
        #expect(json["userVerified"]?.boolValue == true)
        #expect(json["deviceType"]?.stringValue == "multi-device")
        #expect(json["challengeEncoding"]?.stringValue == "bytes")
        #expect(json["publicKey"]?.stringValue?.hasPrefix("pQECAyYg") == true)
    }

    @Test("without --trust-anchor the built-in roots apply: the chain verifies but is reported untrusted")
    func untrustedWithoutAnchor() async throws {
        let result = await CLIHarness.run(try Self.packedArguments())
        #expect(result.status == 0, "\(result.output)")
        let json = try result.json()
        #expect(json["attestation"]?["trusted"]?.boolValue == false)
        #expect(json["attestation"]?["trustReason"]?.stringValue?.isEmpty == false)
    }

    @Test("--require-trusted-attestation fails an unanchored chain with attestation.untrusted")
    func requireTrustedWithoutAnchor() async throws {
        let result = await CLIHarness.run(try Self.packedArguments(["--require-trusted-attestation"]))
        #expect(result.status == 1)
        #expect(result.errorCode == "attestation.untrusted")
    }

    @Test("--require-trusted-attestation passes when the anchor is given")
    func requireTrustedWithAnchor() async throws {
        let result = await CLIHarness.run(
            try Self.packedArguments([
                "--require-trusted-attestation", "--trust-anchor", try CLIHarness.fixture("w3c-test-vectors-ca.pem"),
            ]))
        #expect(result.status == 0, "\(result.output)")
        #expect(try result.json()["attestation"]?["trusted"]?.boolValue == true)
    }

    @Test("a trust anchor the chain does not lead to fails with attestation.untrusted")
    func wrongAnchor() async throws {
        let result = await CLIHarness.run(
            try Self.packedArguments(["--trust-anchor", try CLIHarness.fixture("yubico-u2f-root.pem")]))
        #expect(result.status == 1)
        #expect(result.errorCode == "attestation.untrusted")
    }

    @Test("--at before the certificate's validity fails with certificate.notYetValid")
    func verificationTime() async throws {
        let result = await CLIHarness.run(try Self.packedArguments().setting("--at", to: "2023-06-01T00:00:00Z"))
        #expect(result.status == 1)
        #expect(result.errorCode == "certificate.notYetValid")
    }

    @Test("self attestation is not trusted, so --require-trusted-attestation fails it")
    func selfAttestation() async throws {
        let arguments = try Self.arguments(
            "packed-self-es256.registration.json", challenge: "eGnCt3LUtY66k3jPjynibPk1qnffDaifqZwL3Ap29-U")
        let plain = await CLIHarness.run(arguments)
        #expect(plain.status == 0, "\(plain.output)")
        #expect(try plain.json()["attestation"]?["type"]?.stringValue == "self")
        let strict = await CLIHarness.run(arguments + ["--require-trusted-attestation"])
        #expect(strict.status == 1)
        #expect(strict.errorCode == "attestation.untrusted")
    }

    @Test("cross-origin client data needs --allow-cross-origin")
    func crossOrigin() async throws {
        let arguments = try Self.arguments(
            "none-cross-origin.registration.json", challenge: "O-WqzQNTcUJHI0CrWWnyQPHYdxbiC2gHrCMGVfpLO0k")
        let denied = await CLIHarness.run(arguments)
        #expect(denied.status == 1)
        #expect(denied.errorCode == "crossOriginNotAllowed")
        let allowed = await CLIHarness.run(arguments + ["--allow-cross-origin"])
        #expect(allowed.status == 0, "\(allowed.output)")
        #expect(try allowed.json()["attestation"]?["format"]?.stringValue == "none")
    }

    @Test("--top-origin accepts only the listed top-level origins; --allow-cross-origin alone accepts any")
    func topOrigins() async throws {
        let arguments = try Self.arguments(
            "none-top-origin.registration.json", challenge: "Th9MYZhpnjPBTxkhU_Sdfg6ONXfVrEFsXzrckqQfJ-U")
        let listed = await CLIHarness.run(arguments + ["--top-origin", "https://example.com"])
        #expect(listed.status == 0, "\(listed.output)")
        let other = await CLIHarness.run(arguments + ["--top-origin", "https://other.example"])
        #expect(other.status == 1)
        #expect(other.errorCode == "topOriginNotAllowed")
        let any = await CLIHarness.run(arguments + ["--allow-cross-origin"])
        #expect(any.status == 0, "\(any.output)")
        let none = await CLIHarness.run(arguments)
        #expect(none.errorCode == "crossOriginNotAllowed")
    }

    @Test("--accept-base64url-text-challenge accepts a challenge sent as base64url of its base64url text")
    func textChallenge() async throws {
        let arguments = [
            "verify", "registration", "--credential", try CLIHarness.fixture("none-text-challenge.registration.json"),
            "--challenge", "hEccPWuziP00H0p5gxh2_u5_PC4NeYgd", "--rp-id", "dev.dontneeda.pw",
            "--origin", "https://different.address", "--origin", "https://dev.dontneeda.pw",
        ]
        let strict = await CLIHarness.run(arguments)
        #expect(strict.errorCode == "challengeMismatch")
        let lenient = await CLIHarness.run(arguments + ["--accept-base64url-text-challenge"])
        #expect(lenient.status == 0, "\(lenient.output)")
        #expect(try lenient.json()["challengeEncoding"]?.stringValue == "base64URLText")
    }

    @Test("--algorithms restricts the accepted credential algorithms")
    func algorithms() async throws {
        let refused = await CLIHarness.run(try Self.packedArguments(["--algorithms", "RS256,EdDSA"]))
        #expect(refused.status == 1)
        #expect(refused.errorCode == "algorithmNotAllowed")
        let accepted = await CLIHarness.run(try Self.packedArguments(["--algorithms", "-257,ES256"]))
        #expect(accepted.status == 0, "\(accepted.output)")
    }

    @Test("the credential can come from standard input")
    func standardInput() async throws {
        let result = await CLIHarness.run(
            try Self.packedArguments().setting("--credential", to: "-"),
            stdin: try CLIHarness.fixtureBytes("packed-es256.registration.json")
        )
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("a wrong challenge fails with challengeMismatch")
    func challengeMismatch() async throws {
        let result = await CLIHarness.run(
            try Self.packedArguments().setting("--challenge", to: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
        #expect(result.status == 1)
        #expect(result.errorCode == "challengeMismatch")
    }

    @Test(
        "bad flag values and unreadable files exit 2 with usage.* and io.* codes",
        arguments: [
            (["--at", "yesterday"], "usage.invalidDate"),
            (["--algorithms", "ES256,XX999"], "usage.invalidAlgorithm"),
            (["--trust-anchor", "/nonexistent/anchor.pem"], "io.unreadable"),
        ])
    func usageErrors(extra: [String], code: String) async throws {
        let result = await CLIHarness.run(try Self.packedArguments(extra))
        #expect(result.status == 2)
        #expect(result.errorCode == code)
    }

    @Test("a trust anchor file without a certificate is io.invalidTrustAnchor")
    func invalidAnchorFile() async throws {
        let path = try scratch.file(Array("not a certificate".utf8), suffix: ".pem")
        let result = await CLIHarness.run(try Self.packedArguments(["--trust-anchor", path]))
        #expect(result.status == 2)
        #expect(result.errorCode == "io.invalidTrustAnchor")
    }

    @Test(
        "a missing credential file is io.unreadable, a bad challenge usage.invalidChallenge, no origin usage.missingOrigin"
    )
    func inputErrors() async throws {
        let missing = await CLIHarness.run(
            try Self.packedArguments().setting("--credential", to: "/nonexistent/credential.json"))
        #expect(missing.status == 2)
        #expect(missing.errorCode == "io.unreadable")

        let badChallenge = await CLIHarness.run(try Self.packedArguments().setting("--challenge", to: "!!!"))
        #expect(badChallenge.status == 2)
        #expect(badChallenge.errorCode == "usage.invalidChallenge")

        let noOrigin = await CLIHarness.run(
            try Self.packedArguments().filter { $0 != "--origin" && $0 != "https://example.org" })
        #expect(noOrigin.status == 2)
        #expect(noOrigin.errorCode == "usage.missingOrigin")
    }

    @Test("a credential file that is not credential JSON fails verification with malformedCredential")
    func malformedCredential() async throws {
        let path = try scratch.file(Array(#"{"id": 1}"#.utf8), suffix: ".json")
        let result = await CLIHarness.run(try Self.packedArguments().setting("--credential", to: path))
        #expect(result.status == 1)
        #expect(result.errorCode == "malformedCredential")
    }
}
