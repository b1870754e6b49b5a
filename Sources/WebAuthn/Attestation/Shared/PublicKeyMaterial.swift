import Crypto
import CryptoExtras
import X509

/// A public key reduced to its mathematical parts, so that keys carried in different containers
/// (a COSE_Key, an X.509 SubjectPublicKeyInfo, a TPM `TPMT_PUBLIC`) can be compared for identity.
///
/// Integers (RSA modulus and exponent, EC coordinates) are stored without leading zero bytes, so that
/// `0x00 0x01 0x00 0x01` and `0x01 0x00 0x01` compare equal, as they denote the same number.
struct PublicKeyMaterial: Sendable, Hashable, CustomStringConvertible {
    enum Parts: Sendable, Hashable {
        /// A Weierstrass curve point; `curve` is the COSE curve identifier.
        case ec(curve: Int, x: [UInt8], y: [UInt8])
        /// An Edwards curve key; `curve` is the COSE curve identifier.
        case okp(curve: Int, x: [UInt8])
        case rsa(modulus: [UInt8], exponent: [UInt8])
    }

    let parts: Parts

    private init(_ parts: Parts) { self.parts = parts }

    /// An EC point on a COSE curve.
    static func ec(curve: Int, x: some Collection<UInt8>, y: some Collection<UInt8>) -> PublicKeyMaterial {
        PublicKeyMaterial(.ec(curve: curve, x: unsignedInteger(x), y: unsignedInteger(y)))
    }

    /// An RSA key from its big-endian modulus and public exponent.
    static func rsa(modulus: some Collection<UInt8>, exponent: some Collection<UInt8>) -> PublicKeyMaterial {
        PublicKeyMaterial(.rsa(modulus: unsignedInteger(modulus), exponent: unsignedInteger(exponent)))
    }

    /// The material of a COSE key; nil for key types that have no counterpart in certificates (ML-DSA).
    init?(_ key: COSEKey) {
        switch key.parameters {
        case .ec2(let curve, let x, let y): self = .ec(curve: curve, x: x, y: y)
        case .okp(let curve, let x): self.init(.okp(curve: curve, x: x))
        case .rsa(let n, let e): self = .rsa(modulus: n, exponent: e)
        case .akp: return nil
        }
    }

    /// The material of a certificate's subject public key; nil for key types Latchkey does not compare.
    init?(_ key: Certificate.PublicKey) {
        if let p256 = P256.Signing.PublicKey(key) {
            self = Self.point(p256.rawRepresentation, curve: COSEKey.Curve.p256)
        } else if let p384 = P384.Signing.PublicKey(key) {
            self = Self.point(p384.rawRepresentation, curve: COSEKey.Curve.p384)
        } else if let p521 = P521.Signing.PublicKey(key) {
            self = Self.point(p521.rawRepresentation, curve: COSEKey.Curve.p521)
        } else if let ed25519 = Curve25519.Signing.PublicKey(key) {
            self.init(.okp(curve: COSEKey.Curve.ed25519, x: Array(ed25519.rawRepresentation)))
        } else if let rsa = _RSA.Signing.PublicKey(key), let primitives = try? rsa.getKeyPrimitives() {
            self = .rsa(modulus: primitives.modulus, exponent: primitives.publicExponent)
        } else {
            return nil
        }
    }

    var description: String {
        switch parts {
        case .ec(let curve, _, _): "EC key on COSE curve \(curve)"
        case .okp(let curve, _): "OKP key on COSE curve \(curve)"
        case .rsa(let modulus, _): "RSA-\(modulus.count * 8) key"
        }
    }

    /// Splits `x || y` (the raw representation of an uncompressed point) into its coordinates.
    private static func point(_ raw: some Collection<UInt8>, curve: Int) -> PublicKeyMaterial {
        let bytes = Array(raw)
        let half = bytes.count / 2
        return .ec(curve: curve, x: bytes[..<half], y: bytes[half...])
    }

    private static func unsignedInteger(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(bytes.drop(while: { $0 == 0 }))
    }
}

extension AttestationContext {
    /// Requires `material` (the key an attestation certificate or TPM structure carries) to be the credential
    /// public key from the authenticator data; fails with `attestation.<format>.publicKeyMismatch`.
    ///
    /// - Parameter holder: what carries the key, for the message (`"attestation certificate"`, `"pubArea"`).
    func checkCredentialPublicKey(equals material: PublicKeyMaterial?, holder: String) throws(WebAuthnError) {
        guard let material else {
            throw failure(
                "publicKeyMismatch",
                "the \(holder)'s public key is of a type that cannot be compared with the credential public key")
        }
        guard let credentialKey = PublicKeyMaterial(credential.publicKey), credentialKey == material else {
            throw failure(
                "publicKeyMismatch",
                "the \(holder)'s public key (\(material)) is not the credential public key in authData")
        }
    }
}
