import Testing
import WebAuthn

/// The verifier options `latchkey verify` exposes beyond the defaults, each on the shared vector that needs it
/// (Fixtures/README.md names the vectors).
@Suite("latchkey verify: the library's verifier options")
struct VerifierOptionTests {
    // MARK: - Registration

    /// py-none-up-false-allowed: a none registration whose authenticator data has UP (and UV) clear.
    static func upFalseArguments(_ extra: [String] = []) throws -> [String] {
        [
            "verify", "registration", "--credential", try CLIHarness.fixture("none-up-false.registration.json"),
            "--challenge", "TwN7n4WTyGKLc4ZY-qGsFqKnHM4nglqsyV0ICJlN2TO9XiRyFtrkaDwUvsql-gkLJXP6fnF1MlrZ53Mm4R7Cvw",
            "--origin", "http://localhost:5000", "--rp-id", "localhost",
        ] + extra
    }

    @Test(
        "--user-presence-optional accepts a registration without UP (conditional create); without it, userPresenceRequired"
    )
    func userPresenceOptional() async throws {
        let refused = await CLIHarness.run(try Self.upFalseArguments())
        #expect(refused.status == 1)
        #expect(refused.errorCode == "userPresenceRequired")

        let accepted = await CLIHarness.run(try Self.upFalseArguments(["--user-presence-optional"]))
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(try accepted.json()["attestation"]?["format"]?.stringValue == "none")
    }

    /// sw-safetynet-cts-not-enforced: a SafetyNet JWS with ctsProfileMatch false, fresh at its verifyAt.
    static func ctsArguments(_ extra: [String] = []) throws -> [String] {
        [
            "verify", "registration", "--credential", try CLIHarness.fixture("safetynet-cts-false.registration.json"),
            "--challenge", "Z29vZ2xlLW9hdXRoMnwxMDE2MTE0MDQ5NDI5ODQzNzc4NjM",
            "--origin", "https://login.authress.io", "--rp-id", "authress.io",
            "--at", "2025-06-09T20:40:42.989Z", "--user-presence-optional",
            "--trust-anchor", try CLIHarness.fixture("globalsign-root-ca.pem"),
        ] + extra
    }

    @Test(
        "--safetynet-allow-cts-failure accepts ctsProfileMatch false; without it (sw-safetynet-cts-enforced), ctsProfileMismatch"
    )
    func safetyNetAllowCTSFailure() async throws {
        let refused = await CLIHarness.run(try Self.ctsArguments())
        #expect(refused.status == 1)
        #expect(refused.errorCode == "attestation.android-safetynet.ctsProfileMismatch", "\(refused.output)")

        let accepted = await CLIHarness.run(try Self.ctsArguments(["--safetynet-allow-cts-failure"]))
        #expect(accepted.status == 0, "\(accepted.output)")
        let json = try accepted.json()
        #expect(json["attestation"]?["format"]?.stringValue == "android-safetynet")
        #expect(json["attestation"]?["trusted"]?.boolValue == true)
    }

    /// py-safetynet-2021: a 2021 SafetyNet capture; its certificates are judged at 2021-09-01, but its timestampMs
    /// is weeks before that moment.
    static func oldCaptureArguments(_ extra: [String] = []) throws -> [String] {
        [
            "verify", "registration", "--credential", try CLIHarness.fixture("safetynet-2021.registration.json"),
            "--challenge", "s8xrqLsxgewjto4sx3n1jTYIRQBpHWn3",
            "--origin", "https://devicemanagement-duo1.pwl.ngrok.io", "--rp-id", "pwl.ngrok.io",
            "--at", "2021-09-01T00:00:00Z",
            "--trust-anchor", try CLIHarness.fixture("globalsign-root-ca-r2.pem"),
            "--trust-anchor", try CLIHarness.fixture("globalsign-root-ca.pem"),
        ] + extra
    }

    @Test("--safetynet-skip-timestamp judges an old capture's certificates at --at without its timestamp window")
    func safetyNetSkipTimestamp() async throws {
        let refused = await CLIHarness.run(try Self.oldCaptureArguments())
        #expect(refused.status == 1)
        #expect(refused.errorCode == "attestation.android-safetynet.timestampOutOfRange", "\(refused.output)")

        let accepted = await CLIHarness.run(try Self.oldCaptureArguments(["--safetynet-skip-timestamp"]))
        #expect(accepted.status == 0, "\(accepted.output)")
        let json = try accepted.json()
        #expect(json["attestation"]?["format"]?.stringValue == "android-safetynet")
        #expect(json["attestation"]?["trusted"]?.boolValue == true)
    }

    @Test("--expected-type on registration replaces webauthn.create")
    func registrationExpectedType() async throws {
        let standard = try Self.upFalseArguments(["--user-presence-optional"])
        let same = await CLIHarness.run(standard + ["--expected-type", "webauthn.create"])
        #expect(same.status == 0, "\(same.output)")
        let other = await CLIHarness.run(standard + ["--expected-type", "payment.create"])
        #expect(other.status == 1)
        #expect(other.errorCode == "typeMismatch")
        let empty = await CLIHarness.run(standard + ["--expected-type", ""])
        #expect(empty.status == 2)
        #expect(empty.errorCode == "usage.invalidExpectedType")
    }

    // MARK: - Authentication

    @Test(
        "--expected-type payment.get refuses a webauthn.get assertion (sw-auth-expected-type-mismatch) with typeMismatch"
    )
    func authenticationExpectedType() async throws {
        let arguments = [
            "verify", "authentication", "--credential",
            try CLIHarness.fixture("expected-type-mismatch.authentication.json"),
            "--challenge", "dG90YWxseVVuaXF1ZVZhbHVlRXZlcnlUaW1l",
            "--origin", "https://dev.dontneeda.pw", "--rp-id", "dev.dontneeda.pw",
            "--public-key",
            "pQECAyYgASFYIIheFp-u6GvFT2LNGovf3ZrT0iFVBsA_76rRysxRG9A1Ilgg8WGeA6hPmnab0HAViUYVRkwTNcN77QBf_RR0dv3lIvQ",
            "--sign-count", "143",
        ]
        let standard = await CLIHarness.run(arguments)
        #expect(standard.status == 0, "\(standard.output)")
        let payment = await CLIHarness.run(arguments + ["--expected-type", "payment.get"])
        #expect(payment.status == 1)
        #expect(payment.errorCode == "typeMismatch")
        #expect(try payment.json()["error"]?["message"]?.stringValue?.contains("payment.get") == true)
    }

    /// w3c-fido-u2f-es256-auth, with the client's `appid: true` output added (client extension outputs are not
    /// signed): the authenticator data's rpIdHash is SHA-256 of "example.org", which here plays the AppID of a
    /// relying party whose WebAuthn RP ID is login.example.org.
    static func appIDArguments(_ fixture: String = "fido-u2f-appid.authentication.json", extra: [String] = []) throws
        -> [String]
    {
        [
            "verify", "authentication", "--credential", try CLIHarness.fixture(fixture),
            "--challenge", "-QxhKYHYT1mUON4aUA92km6SzIS--OAsbiNVPwBIVDU",
            "--origin", "https://example.org", "--rp-id", "login.example.org",
            "--public-key",
            "pQECAyYgASFYILDWLeazD4bwusepAWlRORwuMYSeLmRmHL0rE819VQitIlggUDsL2io1eppLNEdaKOZbZgtImKnj6bvwgg1DSUKX7dA",
            "--sign-count", "0",
        ] + extra
    }

    @Test("--appid accepts the AppID's hash as rpIdHash when the client says it used appid")
    func appID() async throws {
        let without = await CLIHarness.run(try Self.appIDArguments())
        #expect(without.status == 1)
        #expect(without.errorCode == "rpIdHashMismatch")

        let accepted = await CLIHarness.run(try Self.appIDArguments(extra: ["--appid", "example.org"]))
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(try accepted.json()["credentialId"]?.stringValue == "pLpuLSz-xDZI19JcXtVlm8GPK3gVOFJ-vUkt4DJWvfQ")

        let wrongAppID = await CLIHarness.run(
            try Self.appIDArguments(extra: ["--appid", "https://example.org/appid.json"]))
        #expect(wrongAppID.status == 1)
        #expect(wrongAppID.errorCode == "rpIdHashMismatch")

        let empty = await CLIHarness.run(try Self.appIDArguments(extra: ["--appid", ""]))
        #expect(empty.status == 2)
        #expect(empty.errorCode == "usage.invalidAppID")
    }

    @Test("--appid does not apply when the client output does not say appid: true")
    func appIDNotUsed() async throws {
        // The packed fixture's client output has no appid; the AppID given equals that vector's RP ID.
        let result = await CLIHarness.run(
            try VerifyAuthenticationTests.packedArguments(rpID: "login.example.org") + ["--appid", "example.org"])
        #expect(result.status == 1)
        #expect(result.errorCode == "rpIdHashMismatch")
    }
}
