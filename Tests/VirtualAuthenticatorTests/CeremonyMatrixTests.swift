import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// Every attestation format the virtual authenticator makes × every algorithm it signs with, registered
/// through `RelyingParty.finishRegistration` and then signed in twice through `finishAuthentication`.
@Suite("Ceremonies: every format × every algorithm")
struct CeremonyMatrixTests {
    static let algorithms = VirtualAuthenticator.supportedAlgorithms

    @Test("none", arguments: algorithms)
    func none(algorithm: COSEAlgorithm) async throws {
        let registration = try await roundTrip(.none, algorithm: algorithm)
        #expect(registration.attestationType == .none)
        #expect(registration.attestation.trust == .notApplicable)
        #expect(registration.trustPath.isEmpty)
    }

    @Test("packed self attestation", arguments: algorithms)
    func packedSelf(algorithm: COSEAlgorithm) async throws {
        let registration = try await roundTrip(.packedSelf, algorithm: algorithm)
        #expect(registration.attestationType == .self)
        #expect(registration.attestation.trust == .notApplicable)
        #expect(registration.trustPath.isEmpty)
    }

    @Test("packed x5c, the CA trusted → trusted", arguments: algorithms)
    func packedTrusted(algorithm: COSEAlgorithm) async throws {
        let ca = try TestCA.root.get()
        let registration = try await roundTrip(.packed(ca), algorithm: algorithm) { rp in
            rp.attestationTrust = TestCA.trusting(ca, for: "packed")
        }
        #expect(registration.attestationType == .basic)
        #expect(registration.attestation.trust == .trusted(anchor: ca.certificate))
        #expect(registration.trustPath.count == 1)
    }

    @Test("packed x5c, no anchor → untrusted", arguments: algorithms)
    func packedUntrusted(algorithm: COSEAlgorithm) async throws {
        let registration = try await roundTrip(.packed(try TestCA.root.get()), algorithm: algorithm)
        #expect(registration.attestationType == .basic)
        guard case .untrusted = registration.attestation.trust else {
            Issue.record("expected an untrusted path, got \(registration.attestation.trust)")
            return
        }
    }

    @Test("packed x5c through an intermediate CA → trusted to the root")
    func packedIntermediate() async throws {
        let root = try TestCA.root.get()
        let intermediate = try root.makeIntermediate()
        let registration = try await roundTrip(.packed(intermediate), algorithm: .es256) { rp in
            rp.attestationTrust = TestCA.trusting(intermediate, for: "packed")
        }
        #expect(registration.trustPath.count == 2)
        #expect(registration.trustPath.last == intermediate.certificate)
        #expect(registration.attestation.trust == .trusted(anchor: root.certificate))
    }

    @Test("fido-u2f (ES256 only), trusted and untrusted", arguments: [true, false])
    func fidoU2F(trusted: Bool) async throws {
        let ca = try TestCA.root.get()
        let registration = try await roundTrip(.fidoU2F(ca), algorithm: .es256) { rp in
            if trusted { rp.attestationTrust = TestCA.trusting(ca, for: "fido-u2f") }
        }
        #expect(registration.attestationType == .basic)
        #expect(registration.trustPath.count == 1)
        #expect(registration.attestation.trust.isTrusted == trusted)
    }

    @Test(
        "a passkey provider: BE and BS set, the counter stays 0 and is accepted",
        arguments: [COSEAlgorithm.es256, .edDSA, .rs256, .mlDSA65])
    func passkeyProvider(algorithm: COSEAlgorithm) async throws {
        var configuration = VirtualAuthenticatorConfiguration.passkeyProvider
        configuration.rsaKeySource = .sharedPerProcess
        let harness = Harness(configuration)
        let options = harness.creationOptions(algorithms: [algorithm], attestation: .none, residentKey: .discouraged)
        let credential = try await harness.create(options)
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(registration.backupEligible && registration.backedUp)
        #expect(registration.deviceType == "multi-device")
        #expect(registration.aaguid.isZero)
        #expect(registration.isDiscoverable == true)
        #expect(registration.authenticatorAttachment == .platform)
        #expect(registration.transports == [.internal, .hybrid])
        let record = Harness.record(registration)
        for _ in 0..<2 {
            let authentication = try await harness.signIn(record)
            #expect(authentication.newSignCount == 0)
            #expect(authentication.signCountRegressed == false)
            #expect(authentication.backupEligible && authentication.backedUp)
        }
    }

    /// Registers with `mode` and `algorithm`, checks what every registration must report, signs in twice.
    private func roundTrip(
        _ mode: AttestationMode, algorithm: COSEAlgorithm, configure: (inout RelyingParty) -> Void = { _ in }
    ) async throws -> VerifiedRegistration {
        let configuration = VirtualAuthenticatorConfiguration.testing(attestation: mode)
        let harness = Harness(configuration, configure: configure)
        let options = harness.creationOptions(algorithms: [algorithm])
        let credential = try await harness.create(options)
        let registration = try await harness.finishRegistration(credential, options: options)

        let isU2F = mode.format == "fido-u2f"
        #expect(registration.credentialID == credential.rawId.bytes)
        #expect(registration.credentialID.count == configuration.credentialIDLength)
        #expect(registration.algorithm == algorithm)
        #expect(registration.aaguid == (isU2F ? .zero : VirtualAuthenticator.defaultAAGUID))
        #expect(registration.attestationFormat == mode.format)
        #expect(registration.signCount == 0)
        #expect(registration.userVerified)
        #expect(!registration.backupEligible && !registration.backedUp)
        #expect(registration.transports == configuration.transports)
        #expect(registration.authenticatorAttachment == .crossPlatform)
        #expect(registration.isDiscoverable == true)
        #expect(registration.challengeEncoding == .bytes)
        #expect(credential.response.publicKeyAlgorithm == algorithm.rawValue)

        let record = Harness.record(registration)
        let first = try await harness.signIn(record)
        #expect(first.credentialID == registration.credentialID)
        #expect(first.newSignCount == 1)
        #expect(first.userHandle == Harness.alice.id.bytes)
        #expect(first.userVerified)
        var advanced = record
        advanced.signCount = first.newSignCount
        let second = try await harness.signIn(advanced)
        #expect(second.newSignCount == 2)
        #expect(second.signCountRegressed == false)
        return registration
    }
}

@Suite("Ceremonies: a trusted-attestation policy")
struct RequireTrustedAttestationTests {
    @Test("none and self attestation fail with attestation.untrusted", arguments: [AttestationMode.none, .packedSelf])
    func untrustedKinds(mode: AttestationMode) async throws {
        let harness = Harness(.testing(attestation: mode)) { $0.attestationTrust.policy = .trusted }
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        await expectWebAuthnError(.untrustedAttestation) {
            try await harness.finishRegistration(credential, options: options)
        }
    }

    @Test("packed x5c without an anchor fails with attestation.untrusted")
    func packedWithoutAnchor() async throws {
        let harness = Harness(.testing(attestation: .packed(try TestCA.root.get()))) {
            $0.attestationTrust.policy = .trusted
        }
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        await expectWebAuthnError(.untrustedAttestation) {
            try await harness.finishRegistration(credential, options: options)
        }
    }

    @Test("packed x5c chaining to the anchor passes")
    func packedWithAnchor() async throws {
        let ca = try TestCA.root.get()
        let harness = Harness(.testing(attestation: .packed(ca))) {
            $0.attestationTrust = TestCA.trusting(ca, for: "packed")
            $0.attestationTrust.policy = .trusted
        }
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(registration.attestation.trust.isTrusted)
    }
}
