import Testing
import WebAuthn

@Suite("latchkey verify authentication")
struct VerifyAuthenticationTests {
    /// w3c-packed-es256-auth: an ES256 assertion, stored counter 0.
    static func packedArguments(
        challenge: String = "sRBvpGpXvvF4FRHAVX3ImKA0E9Xw8X0kRjDBlMfhrbU", origin: String = "https://example.org",
        rpID: String = "example.org", signCount: String = "0"
    ) throws -> [String] {
        [
            "verify", "authentication",
            "--credential", try CLIHarness.fixture("packed-es256.authentication.json"),
            "--challenge", challenge, "--origin", origin, "--rp-id", rpID,
            "--public-key",
            "pQECAyYgASFYIBzyfyXaWRIIpCOcLjJPEE9YVSVHmint7t2DD0jneurlIlggWeS32mwBBuIGzjkMk6uYoVpew4h-V_DMK-zoA7kgxCM",
            "--sign-count", signCount,
        ]
    }

    /// sw-auth-counter-not-increased: the assertion's counter (144) equals the stored one.
    static func counterArguments(_ extra: [String] = []) throws -> [String] {
        [
            "verify", "authentication",
            "--credential", try CLIHarness.fixture("counter-not-increased.authentication.json"),
            "--challenge", "dG90YWxseVVuaXF1ZVZhbHVlRXZlcnlUaW1l",
            "--origin", "https://dev.dontneeda.pw", "--rp-id", "dev.dontneeda.pw",
            "--public-key",
            "pQECAyYgASFYIIheFp-u6GvFT2LNGovf3ZrT0iFVBsA_76rRysxRG9A1Ilgg8WGeA6hPmnab0HAViUYVRkwTNcN77QBf_RR0dv3lIvQ",
            "--sign-count", "144",
        ] + extra
    }

    @Test("a valid assertion verifies and reports the new counter and flags")
    func success() async throws {
        let result = await CLIHarness.run(try Self.packedArguments())
        #expect(result.status == 0, "\(result.output)")
        let json = try result.json()
        #expect(json["credentialId"]?.stringValue == "yab1s0YtAoc_6gxWhiI0-Z8IFygITlEbt3YCAaiQVKU")
        #expect(json["newSignCount"]?.numberValue == 0)
        #expect(json["signCountRegressed"]?.boolValue == false)
        // The fixture's flags byte is 0x0d: UP, UV and BE.
        #expect(json["userVerified"]?.boolValue == true)
        #expect(json["backupEligible"]?.boolValue == true)
        #expect(json["backedUp"]?.boolValue == false)
        #expect(json["challengeEncoding"]?.stringValue == "bytes")
    }

    @Test("a wrong challenge fails with challengeMismatch, exit 1")
    func challengeMismatch() async throws {
        let result = await CLIHarness.run(
            try Self.packedArguments(challenge: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
        #expect(result.status == 1)
        #expect(result.errorCode == "challengeMismatch")
        #expect(try result.json()["error"]?["message"]?.stringValue?.isEmpty == false)
    }

    @Test("an origin the relying party does not serve fails with originNotAllowed, exit 1")
    func originNotAllowed() async throws {
        let result = await CLIHarness.run(try Self.packedArguments(origin: "https://evil.example"))
        #expect(result.status == 1)
        #expect(result.errorCode == "originNotAllowed")
    }

    @Test("another RP ID fails with rpIdHashMismatch")
    func rpIDMismatch() async throws {
        let result = await CLIHarness.run(try Self.packedArguments(rpID: "example.com"))
        #expect(result.status == 1)
        #expect(result.errorCode == "rpIdHashMismatch")
    }

    @Test("a counter that did not increase fails with signCountRegression, exit 1")
    func signCountRegression() async throws {
        let result = await CLIHarness.run(try Self.counterArguments())
        #expect(result.status == 1)
        #expect(result.errorCode == "signCountRegression")
    }

    @Test("--report-sign-count-regression succeeds and flags the regression")
    func reportSignCountRegression() async throws {
        let result = await CLIHarness.run(try Self.counterArguments(["--report-sign-count-regression"]))
        #expect(result.status == 0, "\(result.output)")
        let json = try result.json()
        #expect(json["signCountRegressed"]?.boolValue == true)
        #expect(json["newSignCount"]?.numberValue == 144)
    }

    @Test("--require-user-verification fails an assertion without UV")
    func userVerificationRequired() async throws {
        let result = await CLIHarness.run(
            try Self.counterArguments(["--report-sign-count-regression", "--require-user-verification"]))
        #expect(result.status == 1)
        #expect(result.errorCode == "userVerificationRequired")
    }

    @Test("another credential's key fails with badSignature")
    func wrongKey() async throws {
        let otherKey =
            "pQECAyYgASFYIIheFp-u6GvFT2LNGovf3ZrT0iFVBsA_76rRysxRG9A1Ilgg8WGeA6hPmnab0HAViUYVRkwTNcN77QBf_RR0dv3lIvQ"
        let result = await CLIHarness.run(try Self.packedArguments().setting("--public-key", to: otherKey))
        #expect(result.status == 1)
        #expect(result.errorCode == "badSignature")
    }

    @Test(
        "bad flag values exit 2",
        arguments: [
            ("--sign-count", "lots", "usage.invalidSignCount"),
            ("--sign-count", "4294967296", "usage.invalidSignCount"),
            ("--sign-count", "-1", "usage.invalidSignCount"),
            ("--public-key", "not base64!", "usage.invalidPublicKey"),
            ("--credential", "/nonexistent/assertion.json", "io.unreadable"),
        ])
    func usageErrors(flag: String, value: String, code: String) async throws {
        let result = await CLIHarness.run(try Self.packedArguments().setting(flag, to: value))
        #expect(result.status == 2)
        #expect(result.errorCode == code)
    }

    @Test("a stored key that is not a COSE key fails verification with publicKeyMalformed")
    func malformedStoredKey() async throws {
        let result = await CLIHarness.run(try Self.packedArguments().setting("--public-key", to: "AAECAw"))
        #expect(result.status == 1)
        #expect(result.errorCode == "publicKeyMalformed")
    }

    @Test("a challenge that starts with - is taken as the value, not as an option")
    func challengeStartingWithDash() async throws {
        let result = await CLIHarness.run(
            try Self.packedArguments(challenge: "-RBvpGpXvvF4FRHAVX3ImKA0E9Xw8X0kRjDBlMfhrbU"))
        #expect(result.status == 1)
        #expect(result.errorCode == "challengeMismatch")
    }

    @Test("ArgumentParser's own usage errors keep exit 64")
    func missingOption() async {
        let result = await CLIHarness.run(["verify", "authentication", "--credential", "x.json"])
        #expect(result.status == 64)
    }
}
