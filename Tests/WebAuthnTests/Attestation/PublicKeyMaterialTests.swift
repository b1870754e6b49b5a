import Crypto
import CryptoExtras
import Testing
import X509

@testable import WebAuthn

@Suite("public key comparison")
struct PublicKeyMaterialTests {
    @Test("a certificate's EC key equals the same COSE key, and not another key or curve")
    func ecKeys() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let raw = Array(key.rawRepresentation)
        let cose = COSEKey(
            algorithm: .es256, parameters: .ec2(curve: COSEKey.Curve.p256, x: Array(raw[..<32]), y: Array(raw[32...])))
        let certificateMaterial = PublicKeyMaterial(Certificate.PublicKey(key))
        #expect(certificateMaterial == PublicKeyMaterial(cose))
        #expect(
            PublicKeyMaterial(Certificate.PublicKey(P256.Signing.PrivateKey().publicKey)) != PublicKeyMaterial(cose))
        #expect(
            PublicKeyMaterial.ec(curve: COSEKey.Curve.p384, x: raw[..<32], y: raw[32...]) != PublicKeyMaterial(cose))
    }

    @Test("a certificate's RSA key equals the same COSE key, leading zero bytes aside")
    func rsaKeys() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey
        let primitives = try key.getKeyPrimitives()
        let cose = COSEKey(
            algorithm: .rs256,
            parameters: .rsa(n: [0, 0] + Array(primitives.modulus), e: [0] + Array(primitives.publicExponent)))
        #expect(PublicKeyMaterial(Certificate.PublicKey(key)) == PublicKeyMaterial(cose))
        #expect(PublicKeyMaterial.rsa(modulus: primitives.modulus, exponent: [0x03]) != PublicKeyMaterial(cose))
    }

    @Test("a TPM RSA public area with exponent 0 has the default exponent 65537")
    func tpmDefaultExponent() throws {
        let modulus = [UInt8](repeating: 0xc5, count: 256)
        func pubArea(exponent: [UInt8]) -> [UInt8] {
            [0x00, 0x01, 0x00, 0x0b, 0x00, 0x06, 0x04, 0x72, 0x00, 0x00]
                + [0x00, 0x10, 0x00, 0x14, 0x00, 0x0b]  // symmetric NULL, scheme RSASSA with SHA-256
                + [0x08, 0x00] + exponent + [0x01, 0x00] + modulus
        }
        let standard = PublicKeyMaterial.rsa(modulus: modulus, exponent: [0x01, 0x00, 0x01])
        #expect(try TPMTPublic(bytes: pubArea(exponent: [0, 0, 0, 0])).keyMaterial == standard)
        #expect(try TPMTPublic(bytes: pubArea(exponent: [0, 1, 0, 1])).keyMaterial == standard)
        #expect(try TPMTPublic(bytes: pubArea(exponent: [0, 0, 0, 3])).keyMaterial != standard)
    }

    @Test("a TPM RSA public area whose modulus does not have keyBits bits is malformed")
    func tpmKeyBits() async {
        let bytes: [UInt8] =
            [0x00, 0x01, 0x00, 0x0b, 0x00, 0x06, 0x04, 0x72, 0x00, 0x00, 0x00, 0x10, 0x00, 0x10]
            + [0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80] + [UInt8](repeating: 0xc5, count: 128)
        #expect(await failureCode { try TPMTPublic(bytes: bytes) } == .attestation("tpm", "pubAreaMalformed"))
    }
}
