import CBOR
import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// One test per check `RelyingParty.finishAuthentication` makes, each failing with that check's own code.
@Suite("Authentication: every check fails with its own code")
struct AuthenticationCheckTests {
    /// Registers a credential, signs in with `tampering`, adjusts the assertion and the stored record, then
    /// expects the relying party to fail with `code`.
    private func expectRejected(
        _ code: WebAuthnError.Code,
        configuration: VirtualAuthenticatorConfiguration = .testing(),
        tampering: Tampering = .none,
        topOrigin: String? = nil,
        requireUserVerification: Bool? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        configure: (inout RelyingParty) -> Void = { _ in },
        alterRecord: (inout CredentialRecord) -> Void = { _ in },
        alter: (inout AuthenticationCredential) -> Void = { _ in }
    ) async throws {
        let harness = Harness(configuration, configure: configure)
        var record = try await harness.registeredRecord()
        let options = harness.requestOptions(allowing: [record])
        var credential = try await harness.authenticator.authenticate(
            options: options, origin: harness.origin, topOrigin: topOrigin, tampering: tampering
        )
        alter(&credential)
        alterRecord(&record)
        await expectWebAuthnError(code, sourceLocation: sourceLocation) {
            try harness.finishAuthentication(
                credential, options: options, record: record, requireUserVerification: requireUserVerification)
        }
    }

    @Test("credential type other than public-key → credentialTypeInvalid")
    func credentialType() async throws {
        try await expectRejected(.credentialTypeInvalid, alter: { $0.type = "password" })
    }

    @Test("a credential the options did not allow → credentialNotAllowed")
    func credentialNotAllowed() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        let other = try await harness.registeredRecord(user: Harness.bob)
        let options = harness.requestOptions(allowing: [record, other])
        let credential = try await harness.authenticator.authenticate(
            options: options, origin: harness.origin, choice: .credentialID(other.id)
        )
        await expectWebAuthnError(.credentialNotAllowed) {
            try harness.relyingParty.finishAuthentication(
                credential, expectedChallenge: options.challenge.bytes, credential: other,
                allowedCredentialIDs: [record.id]
            )
        }
    }

    @Test("rawId that is not the stored credential's → credentialIdMismatch")
    func credentialID() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        let options = harness.requestOptions()
        let credential = try await harness.authenticator.authenticate(
            options: options, origin: harness.origin, tampering: Tampering(rawID: Array(repeating: 9, count: 32))
        )
        await expectWebAuthnError(.credentialIdMismatch) {
            try harness.relyingParty.finishAuthentication(
                credential, expectedChallenge: options.challenge.bytes, credential: record)
        }
    }

    @Test("a userHandle that is not the owner's → userHandleMismatch")
    func userHandle() async throws {
        try await expectRejected(.userHandleMismatch, alterRecord: { $0.userHandle = Harness.bob.id.bytes })
    }

    @Test("client data type webauthn.create → typeMismatch")
    func clientDataType() async throws {
        try await expectRejected(.typeMismatch, tampering: Tampering(clientDataType: CollectedClientData.createType))
    }

    @Test("another challenge → challengeMismatch")
    func challenge() async throws {
        try await expectRejected(.challengeMismatch, tampering: Tampering(challenge: Array(repeating: 3, count: 32)))
    }

    @Test("an origin the RP does not list → originNotAllowed")
    func origin() async throws {
        try await expectRejected(.originNotAllowed, tampering: Tampering(origin: "https://example.com.evil.example"))
    }

    @Test("a cross-origin assertion while the RP denies it → crossOriginNotAllowed")
    func crossOrigin() async throws {
        try await expectRejected(.crossOriginNotAllowed, topOrigin: "https://top.example")
    }

    @Test("a topOrigin outside the allowed list → topOriginNotAllowed")
    func topOrigin() async throws {
        try await expectRejected(.topOriginNotAllowed, topOrigin: "https://framer.example") {
            $0.crossOrigin = .allow(topOrigins: ["https://top.example"])
        }
    }

    @Test("client data that is not JSON → clientDataMalformed")
    func clientDataMalformed() async throws {
        try await expectRejected(
            .clientDataMalformed, alter: { $0.response.clientDataJSON = Base64URLBytes(Array("[]".utf8)) })
    }

    @Test("authenticator data for another RP ID → rpIdHashMismatch")
    func rpIDHash() async throws {
        try await expectRejected(.rpIdHashMismatch, tampering: Tampering(rpID: "evil.example"))
    }

    @Test("authenticator data shorter than 37 bytes → authenticatorDataMalformed")
    func authenticatorDataMalformed() async throws {
        try await expectRejected(
            .authenticatorDataMalformed,
            alter: {
                $0.response.authenticatorData = Base64URLBytes(Array($0.response.authenticatorData.bytes.prefix(36)))
            })
    }

    @Test("UP clear → userPresenceRequired")
    func userPresence() async throws {
        try await expectRejected(.userPresenceRequired, tampering: Tampering(clearUserPresence: true))
    }

    @Test("UP clear passes when the RP turns the check off (conformance mode)")
    func userPresenceOff() async throws {
        let harness = Harness { $0.requireUserPresence = false }
        let record = try await harness.registeredRecord()
        let authentication = try await harness.signIn(record, tampering: Tampering(clearUserPresence: true))
        #expect(authentication.newSignCount == 1)
    }

    @Test("UV clear while verification is required → userVerificationRequired", arguments: [true, false])
    func userVerification(byPolicy: Bool) async throws {
        if byPolicy {
            try await expectRejected(.userVerificationRequired, tampering: Tampering(clearUserVerification: true)) {
                $0.userVerification = .required
            }
        } else {
            try await expectRejected(
                .userVerificationRequired, tampering: Tampering(clearUserVerification: true),
                requireUserVerification: true
            )
        }
    }

    @Test("BS without BE → backupStateInvalid")
    func backedUpWithoutEligibility() async throws {
        try await expectRejected(.backupStateInvalid, tampering: Tampering(backedUpWithoutBackupEligibility: true))
    }

    @Test("BE changed since registration → backupStateInvalid")
    func backupEligibilityChanged() async throws {
        try await expectRejected(.backupStateInvalid, alterRecord: { $0.backupEligible = true })
    }

    /// Review finding 9: with only a credential ID (public in allowCredentials) and a bad signature, the stored BE
    /// value must not show through the error.
    @Test("BE changed and a bad signature → badSignature: the stored flag is compared only after the signature")
    func backupEligibilityAfterSignature() async throws {
        try await expectRejected(
            .badSignature, tampering: Tampering(corruptSignature: true), alterRecord: { $0.backupEligible = true })
    }

    @Test(
        "a corrupt signature → badSignature",
        arguments: [COSEAlgorithm.es256, .es384, .es512, .edDSA, .rs256, .ps256, .rs1, .mlDSA65, .mlDSA87])
    func corruptSignature(algorithm: COSEAlgorithm) async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord(algorithm: algorithm)
        await expectWebAuthnError(.badSignature) {
            try await harness.signIn(record, tampering: Tampering(corruptSignature: true))
        }
    }

    @Test("a signature by another credential's key → badSignature")
    func otherKey() async throws {
        let other = try await Harness().registeredRecord()
        try await expectRejected(.badSignature, alterRecord: { $0.publicKey = other.publicKey })
    }

    @Test("a counter that did not increase → signCountRegression")
    func signCountRegression() async throws {
        try await expectRejected(.signCountRegression, alterRecord: { $0.signCount = 5 })
    }

    @Test("a forced counter equal to the stored one → signCountRegression")
    func forcedSignCount() async throws {
        try await expectRejected(
            .signCountRegression, tampering: Tampering(signCount: 3), alterRecord: { $0.signCount = 3 })
    }

    @Test("the report policy reports a regression instead of failing")
    func signCountReported() async throws {
        let harness = Harness { $0.signCountPolicy = .report }
        var record = try await harness.registeredRecord()
        record.signCount = 5
        let authentication = try await harness.signIn(record)
        #expect(authentication.signCountRegressed)
        #expect(authentication.newSignCount == 1)
    }

    @Test("a counter that stays 0 on both sides is accepted")
    func zeroCounter() async throws {
        let harness = Harness(.testing { $0.counterAlwaysZero = true })
        let record = try await harness.registeredRecord()
        let authentication = try await harness.signIn(record)
        #expect(authentication.newSignCount == 0)
        #expect(!authentication.signCountRegressed)
    }

    @Test(
        "a stored key that is not a COSE key → publicKeyMalformed",
        arguments: [
            [UInt8](), [0xa1, 0x01], CBOREncoder.encode(.array([])),
            BadKeys.offCurveP256.rawBytes,
            COSEKey(
                algorithm: .es256, parameters: .okp(curve: COSEKey.Curve.ed25519, x: Array(repeating: 1, count: 32))
            ).rawBytes,
        ])
    func storedKeyMalformed(key: [UInt8]) async throws {
        try await expectRejected(.publicKeyMalformed, alterRecord: { $0.publicKey = key })
    }

    @Test(
        "a stored ML-DSA-44 or Ed448 key → unsupportedAlgorithm",
        arguments: [
            COSEKey(algorithm: .mlDSA44, parameters: .akp(publicKey: Array(repeating: 5, count: 1312))).rawBytes,
            COSEKey(algorithm: .ed448, parameters: .okp(curve: COSEKey.Curve.ed448, x: Array(repeating: 5, count: 57)))
                .rawBytes,
            COSEKey(algorithm: .edDSA, parameters: .okp(curve: COSEKey.Curve.ed448, x: Array(repeating: 5, count: 57)))
                .rawBytes,
        ])
    func unsupportedStoredAlgorithm(key: [UInt8]) async throws {
        try await expectRejected(.unsupportedAlgorithm, alterRecord: { $0.publicKey = key })
    }

    @Test(
        "credential JSON that is not JSON or lacks a field → malformedCredential",
        arguments: [
            "", "[]", #"{"type":"public-key"}"#,
            #"{"id":"AAAA","type":"public-key","response":{"clientDataJSON":"AAAA","authenticatorData":"AAAA"}}"#,
            #"{"id":"AAAA","type":"public-key","response":{"clientDataJSON":"AAAA","signature":"AAAA"}}"#,
        ])
    func malformedJSON(json: String) async throws {
        await expectWebAuthnError(.malformedCredential) {
            try AuthenticationCredential.parse(Array(json.utf8))
        }
    }

    @Test(
        "a response member or rawId that is not base64url → invalidBase64",
        arguments: [
            #"{"id":"AAAA","type":"public-key","response":{"clientDataJSON":"AAAA","authenticatorData":"A","signature":"AAAA"}}"#,
            #"{"rawId":"%%","type":"public-key","response":{"clientDataJSON":"AAAA","authenticatorData":"AAAA","signature":"AAAA"}}"#,
        ])
    func notBase64(json: String) async throws {
        await expectWebAuthnError(.invalidBase64) {
            try AuthenticationCredential.parse(Array(json.utf8))
        }
    }
}
