import CBOR
import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

@Suite("tpm attestation")
struct TPMAttestationTests {
    /// ES256 over SHA-256 certInfo, AIK chained to the W3C test CA (required anchor).
    static let es256 = "w3c-tpm-es256-reg"
    /// RS1: certInfo extraData is a SHA-1 hash; no anchor.
    static let rs1 = "sw-tpm-rs1-dontneeda"

    static func code(_ check: String) -> WebAuthnError.Code { .attestation("tpm", check) }

    @Test("the ES256/SHA-256 and RS1/SHA-1 vectors verify as attCA", arguments: [es256, rs1])
    func vectorsVerify(_ id: String) async throws {
        let registration = try VectorRegistration(id)
        let result = try await registration.verify().get()
        #expect(result.attestationType == .attCA)
        #expect(result.trustPath.count == registration.x5c.count)
        #expect(result.attestation.trust.isTrusted == (id == Self.es256))
    }

    @Test("ver other than 2.0 fails")
    func wrongVersion() async throws {
        var registration = try VectorRegistration(Self.es256)
        registration.set("ver", .textString("1.0"))
        #expect(try await registration.failureCode() == Self.code("unsupportedVersion"))
    }

    @Test("a flipped signature byte fails", arguments: [es256, rs1])
    func badSignature(_ id: String) async throws {
        var registration = try VectorRegistration(id)
        registration.change("sig") { $0[$0.count / 2] ^= 0x01 }
        #expect(try await registration.failureCode() == Self.code("badSignature"))
    }

    @Test("a flipped extraData byte fails, for SHA-256 and SHA-1 extraData", arguments: [es256, rs1])
    func extraDataMismatch(_ id: String) async throws {
        var registration = try VectorRegistration(id)
        registration.change("certInfo") { certInfo in
            // magic (4) type (2) qualifiedSigner (2 + n) extraData (2 + m)
            let signerSize = Int(certInfo[6]) << 8 | Int(certInfo[7])
            certInfo[8 + signerSize + 2] ^= 0x80
        }
        #expect(try await registration.failureCode() == Self.code("extraDataMismatch"))
    }

    @Test("a wrong magic value fails")
    func wrongMagic() async throws {
        var registration = try VectorRegistration(Self.es256)
        registration.change("certInfo") { $0[0] = 0x00 }
        #expect(try await registration.failureCode() == Self.code("certInfoMagicInvalid"))
    }

    @Test("an attestation type other than TPM_ST_ATTEST_CERTIFY fails")
    func wrongType() async throws {
        var registration = try VectorRegistration(Self.es256)
        registration.change("certInfo") { $0[5] = 0x18 }  // 0x8018: TPM_ST_ATTEST_QUOTE
        #expect(try await registration.failureCode() == Self.code("certInfoTypeInvalid"))
    }

    @Test("certInfo with a trailing byte or cut short fails")
    func certInfoLength() async throws {
        var trailing = try VectorRegistration(Self.es256)
        trailing.change("certInfo") { $0.append(0) }
        #expect(try await trailing.failureCode() == Self.code("certInfoMalformed"))
        var short = try VectorRegistration(Self.es256)
        short.change("certInfo") { $0.removeLast(3) }
        #expect(try await short.failureCode() == Self.code("certInfoMalformed"))
    }

    @Test("pubArea with a trailing byte, cut short, or of an unknown type fails")
    func pubAreaStructure() async throws {
        for change: (inout [UInt8]) -> Void in [{ $0.append(0) }, { $0.removeLast() }, { $0[1] = 0x25 }] {
            var registration = try VectorRegistration(Self.es256)
            registration.change("pubArea", change)
            #expect(try await registration.failureCode() == Self.code("pubAreaMalformed"))
        }
    }

    @Test("a pubArea key other than the credential key fails (ECC point, RSA modulus)", arguments: [es256, rs1])
    func pubAreaKeyMismatch(_ id: String) async throws {
        var registration = try VectorRegistration(id)
        registration.change("pubArea") { $0[$0.count - 1] ^= 0x01 }
        #expect(try await registration.failureCode() == Self.code("publicKeyMismatch"))
    }

    @Test("an attested name that is not the pubArea's Name fails")
    func nameMismatch() async throws {
        var registration = try VectorRegistration(Self.es256)
        let certInfo = registration.bytes("certInfo")
        try #require(
            certInfo.suffix(2) == [0, 0], "the vector's qualifiedName is empty, so the name ends 3 bytes from the end")
        registration.change("certInfo") { $0[$0.count - 3] ^= 0x01 }
        #expect(try await registration.failureCode() == Self.code("nameMismatch"))
    }

    @Test("a statement without x5c fails")
    func missingX5C() async throws {
        var registration = try VectorRegistration(Self.es256)
        registration.set("x5c", nil)
        #expect(try await registration.failureCode() == Self.code("malformed"))
    }

    @Test("an AIK certificate without the tcg-kp-AIKCertificate usage fails")
    func missingAIKUsage() async throws {
        var registration = try VectorRegistration(Self.es256)
        let usage: [UInt8] = [0x06, 0x05, 0x67, 0x81, 0x05, 0x08, 0x03]  // OID 2.23.133.8.3
        registration.x5c[0] = try #require(registration.x5c[0].replacing(usage, with: usage.dropLast() + [0x04]))
        #expect(try await registration.failureCode() == Self.code("certificateRequirements"))
    }

    @Test("an AIK certificate whose SAN names no TPM manufacturer fails")
    func missingManufacturer() async throws {
        var registration = try VectorRegistration(Self.es256)
        let manufacturer: [UInt8] = [0x06, 0x05, 0x67, 0x81, 0x05, 0x02, 0x01]  // OID 2.23.133.2.1
        registration.x5c[0] = try #require(
            registration.x5c[0].replacing(manufacturer, with: manufacturer.dropLast() + [0x09]))
        #expect(try await registration.failureCode() == Self.code("certificateRequirements"))
    }

    // MARK: Statements made here, with an AIK of our own

    @Test("a made-up statement verifies, and chains through its critical SAN to its CA")
    func syntheticStatementVerifies() async throws {
        let tpm = try SyntheticTPM()
        let untrusted = try await TPMAttestation().verify(tpm.context())
        #expect(untrusted.type == .attCA)
        #expect(!untrusted.trust.isTrusted)
        let anchors = [try TestCertificates.authority(tpm.caKey)]
        let trusted = try await TPMAttestation().verify(tpm.context(anchors: anchors))
        #expect(trusted.trust.isTrusted)
    }

    @Test("a pubArea whose nameAlg is SHA-1 verifies with a SHA-1 Name")
    func sha1NameAlg() async throws {
        var tpm = try SyntheticTPM()
        tpm.nameAlg = 0x0004
        #expect(try await TPMAttestation().verify(tpm.context()).type == .attCA)
    }

    @Test("AIK certificates that miss a §8.3.1 requirement fail", arguments: SyntheticTPM.AIKFlaw.allCases)
    func aikRequirements(_ flaw: SyntheticTPM.AIKFlaw) async throws {
        var tpm = try SyntheticTPM()
        tpm.flaw = flaw
        #expect(
            await failureCode { try await TPMAttestation().verify(tpm.context()) }
                == Self.code("certificateRequirements"))
    }

    @Test("an AIK certificate whose AAGUID extension differs from authData fails")
    func aaguidMismatch() async throws {
        var tpm = try SyntheticTPM()
        tpm.aaguidExtension = Array(repeating: 0x11, count: 16)
        #expect(await failureCode { try await TPMAttestation().verify(tpm.context()) } == Self.code("aaguidMismatch"))
    }
}

/// A TPM attestation built here: an ECC P-256 pubArea for the credential key, its certify info, signed by an AIK
/// whose certificate a throwaway CA issues with the §8.3.1 contents (or with one flaw).
struct SyntheticTPM {
    enum AIKFlaw: String, CaseIterable, CustomTestStringConvertible {
        case subject, noSubjectAlternativeName, noAIKUsage, certificateAuthority
        var testDescription: String { rawValue }
    }

    let registration = SyntheticRegistration()
    let aikKey = P256.Signing.PrivateKey()
    let caKey = P256.Signing.PrivateKey()
    var nameAlg: UInt16 = 0x000B
    var flaw: AIKFlaw?
    var aaguidExtension: [UInt8]?

    init() throws {}

    var pubArea: [UInt8] {
        let raw = Array(registration.credentialKey.publicKey.rawRepresentation)
        return [0x00, 0x23] + TPMTPublic.bigEndian(nameAlg) + [0x00, 0x06, 0x04, 0x72, 0x00, 0x00]
            + [0x00, 0x10, 0x00, 0x10, 0x00, 0x03, 0x00, 0x10]  // symmetric NULL, scheme NULL, NIST P-256, kdf NULL
            + [0x00, 0x20] + raw[..<32] + [0x00, 0x20] + raw[32...]
    }

    var certInfo: [UInt8] {
        let extraData = Array(SHA256.hash(data: registration.signedData))
        let nameHash = TPMHashAlgorithm(algorithmID: nameAlg)?.hash(pubArea) ?? []
        let name = TPMTPublic.bigEndian(nameAlg) + nameHash
        return [0xff, 0x54, 0x43, 0x47, 0x80, 0x17, 0x00, 0x00] + [0x00, 0x20] + extraData
            + Array(repeating: 0, count: 17 + 8) + TPMTPublic.bigEndian(UInt16(name.count)) + name + [0x00, 0x00]
    }

    func aikCertificate() throws -> [UInt8] {
        let tpmName = DistinguishedName([
            RelativeDistinguishedName([
                .init(type: AIKCertificateRequirements.tpmManufacturer, utf8String: "id:FFFFF1D0"),
                .init(type: AIKCertificateRequirements.tpmModel, utf8String: "Latchkey"),
                .init(type: AIKCertificateRequirements.tpmVersion, utf8String: "id:13"),
            ])
        ])
        var extensions: [Certificate.Extension] = []
        if flaw != .noSubjectAlternativeName {
            extensions.append(
                try Critical(SubjectAlternativeNames([.directoryName(tpmName)])).makeCertificateExtension())
        }
        if flaw != .noAIKUsage {
            let usage = ExtendedKeyUsage.Usage(oid: AIKCertificateRequirements.aikCertificateUsage)
            extensions.append(try ExtendedKeyUsage([usage]).makeCertificateExtension())
        }
        let constraints: BasicConstraints =
            flaw == .certificateAuthority ? .isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority
        extensions.append(try Critical(constraints).makeCertificateExtension())
        if let aaguidExtension {
            extensions.append(
                Certificate.Extension(
                    oid: .fidoAAGUID, critical: false, value: ArraySlice(DERBuilder.octetString(aaguidExtension))))
        }
        let subject = flaw == .subject ? TestCertificates.caName : DistinguishedName()
        return try TestCertificates.issue(
            for: Certificate.PublicKey(aikKey.publicKey), subject: subject,
            extensions: try Certificate.Extensions(extensions), by: caKey
        )
    }

    func context(anchors: [Certificate]? = nil) throws -> AttestationContext {
        let statement = CBORMap([
            (.textString("ver"), .textString("2.0")), (.textString("alg"), .int(COSEAlgorithm.es256.rawValue)),
            (.textString("x5c"), .array([.byteString(try aikCertificate())])),
            (.textString("sig"), .byteString(Array(try aikKey.signature(for: certInfo).derRepresentation))),
            (.textString("certInfo"), .byteString(certInfo)), (.textString("pubArea"), .byteString(pubArea)),
        ])
        return try registration.context(format: "tpm", statement: .map(statement), anchors: anchors)
    }
}
