import CBOR
import Crypto
import Foundation
import Testing
import X509

@testable import WebAuthn

@Suite("apple attestation")
struct AppleAttestationTests {
    static let w3c = "w3c-apple-es256-reg"

    static func code(_ check: String) -> WebAuthnError.Code { .attestation("apple", check) }

    @Test("the apple vectors verify as anonCA, trusted by their anchors", arguments: [w3c, "sw-apple-dontneeda"])
    func vectorsVerify(_ id: String) async throws {
        let result = try await VectorRegistration(id).verify().get()
        #expect(result.attestationType == .anonCA)
        #expect(result.attestation.trust.isTrusted)
    }

    @Test("a statement without x5c fails")
    func missingX5C() async throws {
        var registration = try VectorRegistration(Self.w3c)
        registration.set("x5c", nil)
        #expect(try await registration.failureCode() == Self.code("malformed"))
    }

    @Test("a flipped nonce byte in the credential certificate fails")
    func nonceMismatch() async throws {
        var registration = try VectorRegistration(Self.w3c)
        let nonce = Array(SHA256.hash(data: registration.authData + registration.clientDataHash))
        registration.x5c[0] = try #require(
            registration.x5c[0].replacing(nonce, with: [nonce[0] ^ 0x01] + nonce.dropFirst()))
        #expect(try await registration.failureCode() == Self.code("nonceMismatch"))
    }

    @Test("a credential certificate without the nonce extension fails")
    func nonceExtensionMissing() async throws {
        var registration = try VectorRegistration(Self.w3c)
        let oid: [UInt8] = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x08, 0x02]  // 1.2.840.113635.100.8.2
        registration.x5c[0] = try #require(registration.x5c[0].replacing(oid, with: oid.dropLast() + [0x03]))
        #expect(try await registration.failureCode() == Self.code("nonceExtensionMissing"))
    }

    @Test("a nonce extension that is not SEQUENCE { [1] OCTET STRING } fails")
    func nonceExtensionMalformed() async throws {
        var registration = try VectorRegistration(Self.w3c)
        let tagged: [UInt8] = [0xa1, 0x22, 0x04, 0x20]  // [1] { OCTET STRING (32) }
        registration.x5c[0] = try #require(registration.x5c[0].replacing(tagged, with: [0xa2, 0x22, 0x04, 0x20]))
        #expect(try await registration.failureCode() == Self.code("nonceExtensionMalformed"))
    }

    @Test("a made-up statement verifies and chains to its CA")
    func syntheticStatementVerifies() async throws {
        let apple = SyntheticApple()
        let anchors = [try TestCertificates.authority(apple.caKey)]
        let result = try await AppleAttestation().verify(apple.context(anchors: anchors))
        #expect(result.type == .anonCA)
        #expect(result.trust.isTrusted)
    }

    @Test("a credential certificate for another key than the credential key fails")
    func publicKeyMismatch() async throws {
        var apple = SyntheticApple()
        apple.certificateKey = P256.Signing.PrivateKey().publicKey
        #expect(
            await failureCode { try await AppleAttestation().verify(apple.context()) } == Self.code("publicKeyMismatch")
        )
    }
}

/// An apple attestation built here: a throwaway CA certifies the credential key with the nonce extension.
struct SyntheticApple {
    let registration: SyntheticRegistration
    let caKey = P256.Signing.PrivateKey()
    var certificateKey: P256.Signing.PublicKey

    init(registration: SyntheticRegistration = SyntheticRegistration()) {
        self.registration = registration
        certificateKey = registration.credentialKey.publicKey
    }

    /// `{x5c: [credential certificate]}`.
    func statement() throws -> CBORValue {
        let nonce = Array(SHA256.hash(data: registration.signedData))
        let ext = DERBuilder.sequence(DERBuilder.explicit(1, DERBuilder.octetString(nonce)))
        let leaf = try TestCertificates.issue(
            for: Certificate.PublicKey(certificateKey), subject: TestCertificates.caName,
            extensions: try Certificate.Extensions([
                Certificate.Extension(oid: AppleAttestation.nonceExtensionOID, critical: false, value: ArraySlice(ext))
            ]),
            by: caKey
        )
        return .map(CBORMap([(.textString("x5c"), .array([.byteString(leaf)]))]))
    }

    func context(anchors: [Certificate]? = nil) throws -> AttestationContext {
        try registration.context(format: "apple", statement: statement(), anchors: anchors)
    }
}
