import CBOR
import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// One test per check `RelyingParty.finishRegistration` makes, each failing with that check's own code.
@Suite("Registration: every check fails with its own code")
struct RegistrationCheckTests {
    /// Registers with `tampering` (and `configuration`), then expects the relying party to fail with `code`.
    private func expectRejected(
        _ code: WebAuthnError.Code,
        configuration: VirtualAuthenticatorConfiguration = .testing(),
        tampering: Tampering = .none,
        topOrigin: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        configure: (inout RelyingParty) -> Void = { _ in },
        alter: (inout RegistrationCredential) -> Void = { _ in }
    ) async throws {
        let harness = Harness(configuration, configure: configure)
        let options = harness.creationOptions()
        var credential = try await harness.create(options, topOrigin: topOrigin, tampering: tampering)
        alter(&credential)
        await expectWebAuthnError(code, sourceLocation: sourceLocation) {
            try await harness.finishRegistration(credential, options: options)
        }
    }

    @Test("credential type other than public-key → credentialTypeInvalid")
    func credentialType() async throws {
        try await expectRejected(.credentialTypeInvalid, alter: { $0.type = "password" })
    }

    @Test("client data type webauthn.get → typeMismatch")
    func clientDataType() async throws {
        try await expectRejected(.typeMismatch, tampering: Tampering(clientDataType: CollectedClientData.getType))
    }

    @Test("another challenge → challengeMismatch")
    func challenge() async throws {
        try await expectRejected(.challengeMismatch, tampering: Tampering(challenge: Array(repeating: 7, count: 32)))
    }

    @Test("an origin the RP does not list → originNotAllowed")
    func origin() async throws {
        try await expectRejected(.originNotAllowed, tampering: Tampering(origin: "https://evil.example"))
    }

    @Test("crossOrigin true while the RP denies it → crossOriginNotAllowed", arguments: [true, false])
    func crossOrigin(viaTopOrigin: Bool) async throws {
        if viaTopOrigin {
            try await expectRejected(.crossOriginNotAllowed, topOrigin: "https://top.example")
        } else {
            try await expectRejected(.crossOriginNotAllowed, tampering: Tampering(crossOrigin: true))
        }
    }

    @Test("a topOrigin outside the allowed list → topOriginNotAllowed")
    func topOrigin() async throws {
        try await expectRejected(.topOriginNotAllowed, topOrigin: "https://framer.example") {
            $0.crossOrigin = .allow(topOrigins: ["https://top.example"])
        }
    }

    @Test("an unknown token binding status → tokenBindingInvalid")
    func tokenBinding() async throws {
        try await expectRejected(
            .tokenBindingInvalid,
            alter: { credential in
                credential.response.clientDataJSON = Base64URLBytes(
                    Self.clientData(
                        replacing: credential.response.clientDataJSON.bytes,
                        with: #","tokenBinding":{"status":"bogus"}}"#
                    ))
            })
    }

    @Test("client data that is not JSON → clientDataMalformed")
    func clientDataMalformed() async throws {
        try await expectRejected(
            .clientDataMalformed, alter: { $0.response.clientDataJSON = Base64URLBytes(Array("{not json".utf8)) })
    }

    @Test("authenticator data for another RP ID → rpIdHashMismatch")
    func rpIDHash() async throws {
        try await expectRejected(.rpIdHashMismatch, tampering: Tampering(rpID: "evil.example"))
    }

    @Test("UP clear → userPresenceRequired")
    func userPresence() async throws {
        try await expectRejected(.userPresenceRequired, tampering: Tampering(clearUserPresence: true))
    }

    @Test("UP clear: accepted for a conditional (automatic-upgrade) registration, refused for any other")
    func userPresenceConditional() async throws {
        let harness = Harness(.testing())
        let options = harness.creationOptions()
        let created = try await harness.create(options, tampering: Tampering(clearUserPresence: true))
        let credential = try RegistrationCredential.parse(JSONEncoder().encode(created))
        let authData = try AttestationObject(bytes: credential.response.attestationObject.bytes).authenticatorData
        #expect(!authData.flags.userPresent)

        // The same bytes: a conditional ceremony accepts them …
        let verified = try await harness.relyingParty.finishRegistration(
            credential, expectedChallenge: options.challenge.bytes, requireUserPresence: false
        )
        #expect(verified.credentialID == credential.rawId.bytes)
        // … a normal one (explicitly, or by default) refuses them.
        await expectWebAuthnError(.userPresenceRequired) {
            try await harness.relyingParty.finishRegistration(
                credential, expectedChallenge: options.challenge.bytes, requireUserPresence: true)
        }
        await expectWebAuthnError(.userPresenceRequired) {
            try await harness.relyingParty.finishRegistration(credential, expectedChallenge: options.challenge.bytes)
        }
    }

    @Test("UV clear while the RP requires it → userVerificationRequired")
    func userVerification() async throws {
        try await expectRejected(.userVerificationRequired, tampering: Tampering(clearUserVerification: true)) {
            $0.userVerification = .required
        }
    }

    @Test("UV clear passes when the RP only prefers it")
    func userVerificationPreferred() async throws {
        let harness = Harness()
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Tampering(clearUserVerification: true))
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(registration.userVerified == false)
    }

    @Test("BS without BE → backupStateInvalid")
    func backupState() async throws {
        try await expectRejected(.backupStateInvalid, tampering: Tampering(backedUpWithoutBackupEligibility: true))
    }

    @Test("rawId that is not the attested credential ID → credentialIdMismatch")
    func credentialID() async throws {
        try await expectRejected(.credentialIdMismatch, tampering: Tampering(rawID: Array(repeating: 1, count: 32)))
    }

    @Test("a key algorithm the RP does not allow → algorithmNotAllowed")
    func algorithmNotAllowed() async throws {
        let harness = Harness { $0.algorithms = [.es256] }
        let options = harness.creationOptions(algorithms: [.rs256])
        let credential = try await harness.create(options)
        await expectWebAuthnError(.algorithmNotAllowed) {
            try await harness.finishRegistration(credential, options: options)
        }
    }

    @Test("a format the RP does not accept → attestation.unsupportedFormat")
    func unsupportedFormat() async throws {
        try await expectRejected(.unsupportedAttestationFormat, configuration: .testing(attestation: .packedSelf)) {
            $0.attestationFormats = AttestationFormats([NoneAttestation()])
        }
    }

    @Test("a corrupt packed self signature → attestation.packed.badSignature")
    func packedSelfSignature() async throws {
        try await expectRejected(
            .attestation("packed", "badSignature"), configuration: .testing(attestation: .packedSelf),
            tampering: Tampering(corruptSignature: true)
        )
    }

    @Test("a corrupt packed x5c signature → attestation.packed.badSignature")
    func packedSignature() async throws {
        try await expectRejected(
            .attestation("packed", "badSignature"),
            configuration: .testing(attestation: .packed(try TestCA.root.get())),
            tampering: Tampering(corruptSignature: true)
        )
    }

    @Test("a corrupt fido-u2f signature → attestation.fido-u2f.badSignature")
    func u2fSignature() async throws {
        try await expectRejected(
            .attestation("fido-u2f", "badSignature"),
            configuration: .testing(attestation: .fidoU2F(try TestCA.root.get())),
            tampering: Tampering(corruptSignature: true)
        )
    }

    @Test("packed x5c to a root the RP does not trust, the format anchored by policy → attestation.untrusted")
    func certificateUntrusted() async throws {
        let ca = try TestCA.root.get()
        let someoneElse = try TestCA.other.get()
        try await expectRejected(.untrustedAttestation, configuration: .testing(attestation: .packed(ca))) {
            $0.attestationTrust = TestCA.trusting(someoneElse, for: "packed")
        }
    }

    @Test("packed x5c judged after the CA expired → certificate.expired")
    func certificateExpired() async throws {
        let harness = Harness(.testing(attestation: .packed(try TestCA.root.get())))
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        await expectWebAuthnError(.certificateExpired) {
            try await harness.finishRegistration(
                credential, options: options, at: Date().addingTimeInterval(20 * 365 * 86_400))
        }
    }

    @Test(
        "attestationObject that is not CBOR → attestationObjectMalformed",
        arguments: [
            [UInt8](), [0xff, 0x00, 0x13], CBOREncoder.encode(.array([.textString("fmt")])),
            CBOREncoder.encode(.map(CBORMap([("fmt", .textString("none")), ("attStmt", .map(CBORMap()))]))),
        ])
    func attestationObjectMalformed(bytes: [UInt8]) async throws {
        try await expectRejected(
            .attestationObjectMalformed, alter: { $0.response.attestationObject = Base64URLBytes(bytes) })
    }

    @Test("authenticator data without attested credential data → attestedCredentialDataMissing")
    func attestedCredentialDataMissing() async throws {
        try await expectRejected(
            .attestedCredentialDataMissing,
            alter: { credential in
                let (format, statement, authData) = Self.decodeAttestationObject(
                    credential.response.attestationObject.bytes)
                var bare = Array(authData.prefix(37))
                bare[32] &= ~AuthenticatorFlags.attestedCredentialData.rawValue
                credential.response.attestationObject = Base64URLBytes(
                    Self.encodeAttestationObject(format, statement, bare))
            })
    }

    @Test("authenticator data cut short → authenticatorDataMalformed")
    func authenticatorDataMalformed() async throws {
        try await expectRejected(
            .authenticatorDataMalformed,
            alter: { credential in
                let (format, statement, authData) = Self.decodeAttestationObject(
                    credential.response.attestationObject.bytes)
                credential.response.attestationObject = Base64URLBytes(
                    Self.encodeAttestationObject(format, statement, Array(authData.prefix(50))))
            })
    }

    @Test("a credential public key off its curve → publicKeyMalformed")
    func publicKeyOffCurve() async throws {
        try await expectRejected(
            .publicKeyMalformed,
            alter: { credential in
                let (format, statement, authData) = Self.decodeAttestationObject(
                    credential.response.attestationObject.bytes)
                let credentialIDLength = Int(authData[53]) << 8 | Int(authData[54])
                let rebuilt = Array(authData.prefix(55 + credentialIDLength)) + BadKeys.offCurveP256.rawBytes
                credential.response.attestationObject = Base64URLBytes(
                    Self.encodeAttestationObject(format, statement, rebuilt))
            })
    }

    @Test(
        "credential JSON that is not JSON or lacks a field → malformedCredential",
        arguments: [
            "not json", "{}", #"{"id":"AAAA","type":"public-key"}"#,
            #"{"id":"AAAA","type":"public-key","response":{"attestationObject":"AAAA"}}"#,
            #"{"type":"public-key","response":{"clientDataJSON":"AAAA","attestationObject":"AAAA"}}"#,
        ])
    func malformedJSON(json: String) async throws {
        await expectWebAuthnError(.malformedCredential) {
            try RegistrationCredential.parse(Array(json.utf8))
        }
    }

    @Test("id and rawId that disagree → credentialIdMismatch")
    func idRawIDDisagree() async throws {
        let harness = Harness()
        var credential = try await harness.create(harness.creationOptions())
        credential.id = Base64URL.encode([1, 2, 3])
        await expectWebAuthnError(.credentialIdMismatch) {
            try RegistrationCredential.parse(JSONEncoder().encode(credential))
        }
    }

    @Test("an id that is not base64url → invalidBase64")
    func idNotBase64() async throws {
        let json = #"{"id":"A*A","type":"public-key","response":{"clientDataJSON":"AAAA","attestationObject":"AAAA"}}"#
        await expectWebAuthnError(.invalidBase64) {
            try RegistrationCredential.parse(Array(json.utf8))
        }
    }

    @Test(
        "a credential JSON with a field removed → malformedCredential",
        arguments: ["clientDataJSON", "attestationObject"])
    func missingResponseField(field: String) async throws {
        let harness = Harness()
        let credential = try await harness.create(harness.creationOptions())
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(credential)) as? [String: Any])
        var response = try #require(object["response"] as? [String: Any])
        response[field] = nil
        object["response"] = response
        let json = try JSONSerialization.data(withJSONObject: object)
        await expectWebAuthnError(.malformedCredential) {
            try RegistrationCredential.parse(json)
        }
    }

    // MARK: Helpers

    /// The client data with its closing brace replaced by `suffix`.
    static func clientData(replacing bytes: [UInt8], with suffix: String) -> [UInt8] {
        Array(bytes.dropLast()) + Array(suffix.utf8)
    }

    static func decodeAttestationObject(_ bytes: [UInt8]) -> (String, CBORMap, [UInt8]) {
        let map = (try? CBORDecoder().decode(bytes))?.mapValue ?? CBORMap()
        return (
            map[text: "fmt"]?.stringValue ?? "", map[text: "attStmt"]?.mapValue ?? CBORMap(),
            map[text: "authData"]?.bytesValue ?? []
        )
    }

    static func encodeAttestationObject(_ format: String, _ statement: CBORMap, _ authData: [UInt8]) -> [UInt8] {
        CBOREncoder.encode(
            .map(
                CBORMap([
                    ("fmt", .textString(format)), ("attStmt", .map(statement)), ("authData", .byteString(authData)),
                ])))
    }
}
