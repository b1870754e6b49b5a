import CBOR
import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

@Suite("android-key attestation")
struct AndroidKeyAttestationTests {
    /// FIDO conformance capture: teeEnforced states purpose SIGN and origin GENERATED.
    static let conformance = "go-android-key-0"
    static let vectors = [
        "go-android-key-0", "sw-android-key-conformance-2020", "sw-android-key-conformance-dontneeda",
        "w3c-android-key-es256-reg",
    ]

    static func code(_ check: String) -> WebAuthnError.Code { .attestation("android-key", check) }

    @Test("the android-key vectors verify as basic attestation", arguments: vectors)
    func vectorsVerify(_ id: String) async throws {
        let result = try await VectorRegistration(id).verify().get()
        #expect(result.attestationType == .basic)
        #expect(result.attestationFormat == "android-key")
    }

    @Test("the conformance vector's teeEnforced list satisfies the strictest policy")
    func conformanceUnderTEEPolicy() async throws {
        let result = try await VectorRegistration(Self.conformance).verify {
            $0.attestationOptions.androidKeyAuthorizations = .teeEnforced
        }
        #expect(throws: Never.self) { try result.get() }
    }

    @Test("the W3C vector's empty authorization lists pass only under statedValues")
    func emptyListsNeedStatedValues() async throws {
        let registration = try VectorRegistration("w3c-android-key-es256-reg")
        for policy in [AndroidKeyAuthorizationPolicy.teeEnforced, .teeOrSoftwareEnforced] {
            #expect(
                try await registration.failureCode { $0.attestationOptions.androidKeyAuthorizations = policy }
                    == Self.code("originNotGenerated"))
        }
    }

    @Test("a flipped signature byte fails")
    func badSignature() async throws {
        var registration = try VectorRegistration(Self.conformance)
        registration.change("sig") { $0[$0.count - 4] ^= 0x01 }
        #expect(try await registration.failureCode() == Self.code("badSignature"))
    }

    @Test("a statement without x5c fails")
    func missingX5C() async throws {
        var registration = try VectorRegistration(Self.conformance)
        registration.set("x5c", nil)
        #expect(try await registration.failureCode() == Self.code("malformed"))
    }

    @Test("an attestationChallenge other than clientDataHash fails")
    func challengeMismatch() async throws {
        var registration = try VectorRegistration(Self.conformance)
        let challenge = registration.clientDataHash
        registration.x5c[0] = try #require(
            registration.x5c[0].replacing(challenge, with: challenge.dropLast() + [challenge[31] ^ 0x01]))
        #expect(try await registration.failureCode() == Self.code("challengeMismatch"))
    }

    @Test("a teeEnforced origin other than KM_ORIGIN_GENERATED fails")
    func importedOrigin() async throws {
        var registration = try VectorRegistration(Self.conformance)
        let origin = DERBuilder.explicit(702, DERBuilder.integer(0))
        registration.x5c[0] = try #require(
            registration.x5c[0].replacing(origin, with: DERBuilder.explicit(702, DERBuilder.integer(2))))
        #expect(try await registration.failureCode() == Self.code("originNotGenerated"))
    }

    @Test("a teeEnforced purpose without KM_PURPOSE_SIGN fails")
    func purposeWithoutSign() async throws {
        var registration = try VectorRegistration(Self.conformance)
        let purpose = DERBuilder.explicit(1, DERBuilder.set(DERBuilder.integer(2)))
        registration.x5c[0] = try #require(
            registration.x5c[0].replacing(purpose, with: DERBuilder.explicit(1, DERBuilder.set(DERBuilder.integer(3)))))
        #expect(try await registration.failureCode() == Self.code("purposeNotSign"))
    }

    // MARK: Statements made here, with key descriptions of our own

    @Test("a made-up statement verifies under every policy, and chains to its CA")
    func syntheticStatementVerifies() async throws {
        let android = SyntheticAndroidKey()
        for policy in [AndroidKeyAuthorizationPolicy.teeEnforced, .teeOrSoftwareEnforced, .statedValues] {
            #expect(await failureCode { try await android.verify(policy: policy) } == nil)
        }
        let anchors = [try TestCertificates.authority(android.caKey)]
        #expect(try await android.verify(anchors: anchors).trust.isTrusted)
    }

    @Test("allApplications in either list fails")
    func allApplications() async throws {
        for software in [true, false] {
            var android = SyntheticAndroidKey()
            if software {
                android.softwareEnforced = [.allApplications]
            } else {
                android.teeEnforced = [.purpose([2]), .allApplications, .origin(0)]  // tags ascend: 1, 600, 702
            }
            #expect(await failureCode { try await android.verify() } == Self.code("allApplicationsPresent"))
        }
    }

    @Test("softwareEnforced statements count only when the policy accepts software keys")
    func softwareOnlyStatements() async throws {
        var android = SyntheticAndroidKey()
        android.softwareEnforced = android.teeEnforced
        android.teeEnforced = []
        #expect(await failureCode { try await android.verify(policy: .teeOrSoftwareEnforced) } == nil)
        #expect(await failureCode { try await android.verify(policy: .statedValues) } == nil)
        #expect(await failureCode { try await android.verify(policy: .teeEnforced) } == Self.code("originNotGenerated"))
    }

    @Test("a wrong softwareEnforced origin fails unless only teeEnforced is consulted")
    func softwareOriginImported() async throws {
        var android = SyntheticAndroidKey()
        android.softwareEnforced = [.origin(2)]
        #expect(await failureCode { try await android.verify() } == Self.code("originNotGenerated"))
        #expect(await failureCode { try await android.verify(policy: .teeEnforced) } == nil)
    }

    @Test("a purpose of verify only fails")
    func verifyOnlyPurpose() async throws {
        var android = SyntheticAndroidKey()
        android.teeEnforced = [.purpose([3]), .origin(0)]
        #expect(await failureCode { try await android.verify() } == Self.code("purposeNotSign"))
    }

    @Test("a certificate without the key description fails")
    func missingKeyDescription() async throws {
        var android = SyntheticAndroidKey()
        android.includesKeyDescription = false
        #expect(await failureCode { try await android.verify() } == Self.code("keyDescriptionMissing"))
    }

    @Test(
        "key descriptions that are not the schema fail",
        arguments: [
            DERBuilder.octetString([1, 2, 3]),
            DERBuilder.sequence(DERBuilder.integer(3)),
            // authorization list tags out of order: [702] before [1]
            SyntheticAndroidKey.description(challenge: [], software: [], tee: [.origin(0), .purpose([2])]),
        ])
    func malformedKeyDescription(_ der: [UInt8]) async throws {
        var android = SyntheticAndroidKey()
        android.keyDescription = der
        #expect(await failureCode { try await android.verify() } == Self.code("keyDescriptionMalformed"))
    }

    @Test("a certificate for another key than the credential key fails")
    func publicKeyMismatch() async throws {
        var android = SyntheticAndroidKey()
        android.certificateKey = P256.Signing.PrivateKey()
        #expect(await failureCode { try await android.verify() } == Self.code("publicKeyMismatch"))
    }
}

/// An android-key attestation built here: the credential key signs, and a throwaway CA certifies it with a key
/// description the test chooses.
struct SyntheticAndroidKey {
    enum Authorization {
        case purpose([Int])
        case allApplications
        case origin(Int)

        var der: [UInt8] {
            switch self {
            case .purpose(let purposes):
                DERBuilder.explicit(1, DERBuilder.tlv([0x31], purposes.flatMap { DERBuilder.integer($0) }))
            case .allApplications: DERBuilder.explicit(600, DERBuilder.null)
            case .origin(let origin): DERBuilder.explicit(702, DERBuilder.integer(origin))
            }
        }
    }

    let registration = SyntheticRegistration()
    let caKey = P256.Signing.PrivateKey()
    /// The key the certificate is for and that signs; the credential key unless a test changes it.
    var certificateKey: P256.Signing.PrivateKey
    var softwareEnforced: [Authorization] = []
    var teeEnforced: [Authorization] = [.purpose([2]), .origin(0)]
    /// The extension's DER; built from the lists when nil.
    var keyDescription: [UInt8]?
    var includesKeyDescription = true

    init() {
        certificateKey = registration.credentialKey
    }

    static func description(challenge: [UInt8], software: [Authorization], tee: [Authorization]) -> [UInt8] {
        DERBuilder.sequence(
            DERBuilder.integer(3), DERBuilder.integer(1, tag: 0x0a), DERBuilder.integer(4),
            DERBuilder.integer(1, tag: 0x0a),
            DERBuilder.octetString(challenge), DERBuilder.octetString([]),
            DERBuilder.tlv([0x30], software.flatMap(\.der)), DERBuilder.tlv([0x30], tee.flatMap(\.der))
        )
    }

    func verify(
        policy: AndroidKeyAuthorizationPolicy = .statedValues, anchors: [Certificate]? = nil
    ) async throws -> VerifiedAttestation {
        let ext =
            keyDescription
            ?? Self.description(challenge: registration.clientDataHash, software: softwareEnforced, tee: teeEnforced)
        var extensions: [Certificate.Extension] = []
        if includesKeyDescription {
            extensions.append(
                Certificate.Extension(oid: AndroidKeyDescription.extensionOID, critical: false, value: ArraySlice(ext)))
        }
        let leaf = try TestCertificates.issue(
            for: Certificate.PublicKey(certificateKey.publicKey), subject: TestCertificates.caName,
            extensions: try Certificate.Extensions(extensions), by: caKey
        )
        let statement = CBORMap([
            (.textString("alg"), .int(COSEAlgorithm.es256.rawValue)),
            (
                .textString("sig"),
                .byteString(Array(try certificateKey.signature(for: registration.signedData).derRepresentation))
            ),
            (.textString("x5c"), .array([.byteString(leaf)])),
        ])
        var options = AttestationOptions()
        options.androidKeyAuthorizations = policy
        return try await AndroidKeyAttestation().verify(
            registration.context(format: "android-key", statement: .map(statement), anchors: anchors, options: options)
        )
    }
}
