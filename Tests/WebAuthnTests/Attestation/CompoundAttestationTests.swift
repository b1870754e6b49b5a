import CBOR
import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

@Suite("compound attestation")
struct CompoundAttestationTests {
    static func code(_ check: String) -> WebAuthnError.Code { .attestation("compound", check) }

    /// `{fmt, attStmt}`.
    static func entry(_ format: String, _ statement: CBORValue) -> CBORValue {
        .map(CBORMap([(.textString("fmt"), .textString(format)), (.textString("attStmt"), statement)]))
    }

    /// Packed self attestation by the registration's credential key.
    static func packedSelf(_ registration: SyntheticRegistration) throws -> CBORValue {
        .map(
            CBORMap([
                (.textString("alg"), .int(COSEAlgorithm.es256.rawValue)),
                (.textString("sig"), .byteString(try registration.credentialSignature())),
            ]))
    }

    static func finish(
        _ registration: SyntheticRegistration, _ statement: CBORValue,
        rp: RelyingParty = SyntheticRegistration.relyingParty
    ) async -> Result<VerifiedRegistration, WebAuthnError> {
        do {
            return .success(
                try await rp.finishRegistration(
                    registration.credential(format: "compound", statement: statement),
                    expectedChallenge: registration.challenge
                ))
        } catch {
            return .failure(error)
        }
    }

    @Test("packed self and apple statements over one registration verify together")
    func verifiesThroughTheCeremony() async throws {
        let apple = SyntheticApple()
        let statement = CBORValue.array([
            Self.entry("packed", try Self.packedSelf(apple.registration)), Self.entry("apple", try apple.statement()),
        ])
        let untrusted = try await Self.finish(apple.registration, statement).get()
        #expect(untrusted.attestationFormat == "compound")
        #expect(untrusted.attestation.components.map(\.format) == ["packed", "apple"])
        #expect(untrusted.attestation.components.map(\.type) == [.self, .anonCA])
        #expect(untrusted.attestationType == .self)
        #expect(!untrusted.attestation.trust.isTrusted)

        var rp = SyntheticRegistration.relyingParty
        rp.attestationTrust = AttestationTrust(
            anchorsByFormat: ["apple": [try TestCertificates.authority(apple.caKey)]],
            policy: .trusted
        )
        let trusted = try await Self.finish(apple.registration, statement, rp: rp).get()
        #expect(trusted.attestation.trust.isTrusted)
        #expect(trusted.attestationType == .anonCA)
    }

    @Test("a sub-statement is anchored by the roots of the authenticator's metadata entry")
    func metadataRootsAnchorSubstatements() async throws {
        let apple = SyntheticApple()
        let statement = CBORValue.array([
            Self.entry("packed", try Self.packedSelf(apple.registration)), Self.entry("apple", try apple.statement()),
        ])
        let root = try TestCertificates.authority(apple.caKey)
        let entry = MetadataEntry(
            aaguid: AAGUID(bytes: apple.registration.aaguid),
            metadataStatement: MetadataStatement(
                description: "Synthetic (test metadata)",
                attestationRootCertificates: [
                    Data(try root.serializeAsPEM().derBytes).base64EncodedString()
                ]),
            statusReports: [StatusReport(status: .fidoCertifiedL1)]
        )
        var rp = SyntheticRegistration.relyingParty
        rp.attestationTrust = AttestationTrust(
            metadata: MetadataBLOB(number: 1, nextUpdate: .distantFuture, entries: [entry]), policy: .trusted
        )
        let verified = try await Self.finish(apple.registration, statement, rp: rp).get()
        #expect(verified.attestation.components.map(\.trust.isTrusted) == [false, true])
        #expect(verified.attestation.trust == .trusted(anchor: root))
        #expect(verified.metadata?.description == "Synthetic (test metadata)")

        // Without the metadata entry nothing anchors the apple sub-statement.
        rp.attestationTrust = AttestationTrust(policy: .trusted)
        #expect(
            await failureCode { try await Self.finish(apple.registration, statement, rp: rp).get() }
                == .untrustedAttestation)
    }

    @Test("a failing sub-statement fails the whole with its own code")
    func failingComponent() async throws {
        let apple = SyntheticApple()
        let badPacked = CBORValue.map(
            CBORMap([
                (.textString("alg"), .int(COSEAlgorithm.es256.rawValue)),
                (
                    .textString("sig"),
                    .byteString(
                        Array(try apple.registration.credentialKey.signature(for: [1, 2, 3]).derRepresentation))
                ),
            ]))
        let statement = CBORValue.array([Self.entry("apple", try apple.statement()), Self.entry("packed", badPacked)])
        #expect(
            await failureCode { try await Self.finish(apple.registration, statement).get() }
                == .attestation("packed", "badSignature"))
    }

    @Test("fewer than two sub-statements, or entries that are not {fmt, attStmt} maps, fail")
    func malformed() async throws {
        let registration = SyntheticRegistration()
        let packed = Self.entry("packed", try Self.packedSelf(registration))
        for statement in [
            CBORValue.array([packed]), .array([]), .array([packed, .int(1)]),
            .array([packed, Self.entry("packed", .array([]))]),
        ] {
            #expect(
                await failureCode { try await Self.finish(registration, statement).get() } == Self.code("malformed"))
        }
    }

    @Test("a compound statement inside a compound statement fails")
    func nested() async throws {
        let registration = SyntheticRegistration()
        let packed = Self.entry("packed", try Self.packedSelf(registration))
        let inner = CBORValue.array([packed, packed])
        let statement = CBORValue.array([packed, Self.entry("compound", .map(CBORMap([(.textString("x"), inner)])))])
        #expect(
            await failureCode { try await Self.finish(registration, statement).get() } == Self.code("nestedCompound"))
    }

    @Test("a sub-statement of an unknown format fails")
    func unknownFormat() async throws {
        let registration = SyntheticRegistration()
        let packed = Self.entry("packed", try Self.packedSelf(registration))
        let statement = CBORValue.array([packed, Self.entry("not-a-format", .map(CBORMap()))])
        #expect(
            await failureCode { try await Self.finish(registration, statement).get() } == .unsupportedAttestationFormat)
    }

    @Test("a map statement for compound, or an array statement for another format, fails")
    func statementShape() async throws {
        let registration = SyntheticRegistration()
        let context = try registration.context(format: "compound", statement: .map(CBORMap()))
        #expect(
            await failureCode { try await CompoundAttestation(formats: .single).verify(context) }
                == Self.code("malformed"))

        let packed = Self.entry("packed", try Self.packedSelf(registration))
        let credential = registration.credential(format: "none", statement: .array([packed, packed]))
        #expect(
            await failureCode {
                try await SyntheticRegistration.relyingParty.finishRegistration(
                    credential, expectedChallenge: registration.challenge)
            } == .attestationObjectMalformed)
    }
}
