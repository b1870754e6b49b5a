import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import WebAuthn
import X509

/// A private key for one COSE algorithm — a credential key or an attestation key: made, stored, shown as a
/// public key and used to sign.
///
/// The portable form (``portableBytes``) depends on the key family:
/// - ECDSA (P-256, P-384, P-521) and RSA: PKCS #8 DER;
/// - Ed25519: the 32-byte private key;
/// - ML-DSA-65 and ML-DSA-87: the 32-byte FIPS 204 seed.
struct SigningKey: Sendable {
    /// Unchecked because Apple's SDKs before Xcode 16.3 declare CryptoKit's private keys (immutable values) without
    /// `Sendable`; with those SDKs the checked form does not compile, and nothing here shares mutable state.
    enum Key: @unchecked Sendable {
        case p256(P256.Signing.PrivateKey)
        case p384(P384.Signing.PrivateKey)
        case p521(P521.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
        case mlDSA(MLDSAPrivateKey)
    }

    /// The key families, each with the algorithms that use it.
    enum Family {
        case p256, p384, p521, ed25519, rsa
        case mlDSA(MLDSAParameterSet)

        init?(_ algorithm: COSEAlgorithm) {
            switch algorithm {
            case .es256, .esp256: self = .p256
            case .es384, .esp384: self = .p384
            case .es512, .esp512: self = .p521
            case .edDSA, .ed25519: self = .ed25519
            case .rs1, .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: self = .rsa
            case .mlDSA65: self = .mlDSA(.mlDSA65)
            case .mlDSA87: self = .mlDSA(.mlDSA87)
            default: return nil
            }
        }
    }

    let key: Key
    let algorithm: COSEAlgorithm

    /// Makes a new key for `algorithm`; RSA keys come from `rsaKeys`.
    static func generate(
        for algorithm: COSEAlgorithm, rsaKeys: VirtualAuthenticatorConfiguration.RSAKeySource
    ) throws(VirtualAuthenticatorError) -> SigningKey {
        guard let family = Family(algorithm) else {
            throw .unsupportedAlgorithm(requested: [algorithm])
        }
        do {
            let key: Key =
                switch family {
                case .p256: .p256(P256.Signing.PrivateKey())
                case .p384: .p384(P384.Signing.PrivateKey())
                case .p521: .p521(P521.Signing.PrivateKey())
                case .ed25519: .ed25519(Curve25519.Signing.PrivateKey())
                case .rsa: .rsa(try rsaKey(from: rsaKeys))
                case .mlDSA(let set): .mlDSA(try Self.mlDSAKey(algorithm, try MLDSAPrivateKey.generate(set)))
                }
            return SigningKey(key, algorithm: algorithm)
        } catch let error as VirtualAuthenticatorError {
            throw error
        } catch {
            throw .keyGenerationFailed("\(algorithm.name): \(error)")
        }
    }

    /// The ML-DSA key made, or `unsupportedAlgorithm` on a system without ML-DSA (Apple platforms before iOS 26 and
    /// macOS 26, where ``VirtualAuthenticator/supportedAlgorithms`` leaves ML-DSA out).
    private static func mlDSAKey(_ algorithm: COSEAlgorithm, _ made: MLDSAPrivateKey?) throws(VirtualAuthenticatorError)
        -> MLDSAPrivateKey
    {
        guard let key = made else {
            throw VirtualAuthenticatorError.unsupportedAlgorithm(requested: [algorithm])
        }
        return key
    }

    /// One key for every `.sharedPerProcess` authenticator; nil if generation failed.
    private static let processRSAKey = try? _RSA.Signing.PrivateKey(keySize: .bits2048)

    private static func rsaKey(from source: VirtualAuthenticatorConfiguration.RSAKeySource) throws
        -> _RSA.Signing.PrivateKey
    {
        switch source {
        case .freshPerCredential:
            return try _RSA.Signing.PrivateKey(keySize: .bits2048)
        case .sharedPerProcess:
            guard let key = processRSAKey else {
                throw VirtualAuthenticatorError.keyGenerationFailed("the shared RSA key could not be made")
            }
            return key
        case .fixed(let key):
            return key
        }
    }

    /// Loads a key from its portable form.
    init(algorithm: COSEAlgorithm, portableBytes bytes: [UInt8]) throws(VirtualAuthenticatorError) {
        guard let family = Family(algorithm) else {
            throw .storedKeyMalformed("algorithm \(algorithm) is not one the virtual authenticator signs with")
        }
        do {
            switch family {
            case .p256: key = .p256(try P256.Signing.PrivateKey(derRepresentation: bytes))
            case .p384: key = .p384(try P384.Signing.PrivateKey(derRepresentation: bytes))
            case .p521: key = .p521(try P521.Signing.PrivateKey(derRepresentation: bytes))
            case .ed25519: key = .ed25519(try Curve25519.Signing.PrivateKey(rawRepresentation: bytes))
            case .rsa: key = .rsa(try _RSA.Signing.PrivateKey(derRepresentation: bytes))
            case .mlDSA(let set):
                key = .mlDSA(try Self.mlDSAKey(algorithm, try MLDSAPrivateKey.load(set, seedRepresentation: bytes)))
            }
        } catch let error as VirtualAuthenticatorError {
            throw error
        } catch {
            throw .storedKeyMalformed("\(algorithm.name) key: \(error)")
        }
        self.algorithm = algorithm
    }

    init(_ key: Key, algorithm: COSEAlgorithm) {
        self.key = key
        self.algorithm = algorithm
    }

    /// The private key in the portable form described on the type.
    var portableBytes: [UInt8] {
        switch key {
        case .p256(let k): Array(k.derRepresentation)
        case .p384(let k): Array(k.derRepresentation)
        case .p521(let k): Array(k.derRepresentation)
        case .ed25519(let k): Array(k.rawRepresentation)
        case .rsa(let k): Array(k.pkcs8DERRepresentation)
        case .mlDSA(let k): k.seedRepresentation
        }
    }

    /// The public key as a COSE_Key, as the authenticator puts it in attested credential data.
    func coseKey() throws(VirtualAuthenticatorError) -> COSEKey {
        func ec2(_ curve: Int, _ raw: Data) -> COSEKey.Parameters {
            let half = raw.count / 2
            return .ec2(curve: curve, x: Array(raw.prefix(half)), y: Array(raw.suffix(half)))
        }
        let parameters: COSEKey.Parameters
        switch key {
        case .p256(let k): parameters = ec2(COSEKey.Curve.p256, k.publicKey.rawRepresentation)
        case .p384(let k): parameters = ec2(COSEKey.Curve.p384, k.publicKey.rawRepresentation)
        case .p521(let k): parameters = ec2(COSEKey.Curve.p521, k.publicKey.rawRepresentation)
        case .ed25519(let k): parameters = .okp(curve: COSEKey.Curve.ed25519, x: Array(k.publicKey.rawRepresentation))
        case .rsa(let k):
            do {
                let primitives = try k.publicKey.getKeyPrimitives()
                parameters = .rsa(n: Array(primitives.modulus), e: Array(primitives.publicExponent))
            } catch {
                throw .keyGenerationFailed("RSA public key: \(error)")
            }
        case .mlDSA(let k): parameters = .akp(publicKey: k.publicKeyRawRepresentation)
        }
        return COSEKey(algorithm: algorithm, parameters: parameters)
    }

    /// The public key as swift-certificates sees it; nil for ML-DSA, which it does not know.
    var certificatePublicKey: Certificate.PublicKey? {
        switch key {
        case .p256(let k): Certificate.PublicKey(k.publicKey)
        case .p384(let k): Certificate.PublicKey(k.publicKey)
        case .p521(let k): Certificate.PublicKey(k.publicKey)
        case .ed25519(let k): Certificate.PublicKey(k.publicKey)
        case .rsa(let k): Certificate.PublicKey(k.publicKey)
        case .mlDSA: nil
        }
    }

    /// The public key as a DER SubjectPublicKeyInfo, as `getPublicKey()` returns it.
    func subjectPublicKeyInfo() -> [UInt8]? {
        var serializer = DER.Serializer()
        do {
            switch key {
            case .mlDSA(let k):
                let oid = k.parameterSet == .mlDSA65 ? Self.idMLDSA65 : Self.idMLDSA87
                try Self.serializeMLDSA(oid: oid, k.publicKeyRawRepresentation, into: &serializer)
            default:
                guard let publicKey = certificatePublicKey else { return nil }
                try serializer.serialize(publicKey)
            }
        } catch {
            return nil
        }
        return serializer.serializedBytes
    }

    /// Signs `data` as WebAuthn specifies for the algorithm: ECDSA as ASN.1 DER, RSA with the algorithm's
    /// hash and padding, EdDSA and ML-DSA (empty context) over the message itself.
    func sign(_ data: [UInt8]) throws(VirtualAuthenticatorError) -> [UInt8] {
        do {
            switch key {
            case .p256(let k): return Array(try k.signature(for: data).derRepresentation)
            case .p384(let k): return Array(try k.signature(for: data).derRepresentation)
            case .p521(let k): return Array(try k.signature(for: data).derRepresentation)
            case .ed25519(let k): return Array(try k.signature(for: data))
            case .rsa(let k): return try Self.rsaSignature(k, algorithm: algorithm, data: data)
            case .mlDSA(let k): return try k.signature(for: data)
            }
        } catch let error as VirtualAuthenticatorError {
            throw error
        } catch {
            throw .signingFailed("\(algorithm.name): \(error)")
        }
    }

    private static func rsaSignature(
        _ key: _RSA.Signing.PrivateKey, algorithm: COSEAlgorithm, data: [UInt8]
    ) throws -> [UInt8] {
        let signature: _RSA.Signing.RSASignature
        switch algorithm {
        case .rs1: signature = try key.signature(for: Insecure.SHA1.hash(data: data), padding: .insecurePKCS1v1_5)
        case .rs256: signature = try key.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        case .rs384: signature = try key.signature(for: SHA384.hash(data: data), padding: .insecurePKCS1v1_5)
        case .rs512: signature = try key.signature(for: SHA512.hash(data: data), padding: .insecurePKCS1v1_5)
        case .ps256: signature = try key.signature(for: SHA256.hash(data: data), padding: .PSS)
        case .ps384: signature = try key.signature(for: SHA384.hash(data: data), padding: .PSS)
        case .ps512: signature = try key.signature(for: SHA512.hash(data: data), padding: .PSS)
        default: throw VirtualAuthenticatorError.unsupportedAlgorithm(requested: [algorithm])
        }
        return Array(signature.rawRepresentation)
    }

    private static let idMLDSA65: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 3, 18]
    private static let idMLDSA87: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 3, 19]

    /// RFC 9881: `SEQUENCE { SEQUENCE { id-ml-dsa-NN }, BIT STRING pk }` (no parameters).
    private static func serializeMLDSA(
        oid: ASN1ObjectIdentifier, _ publicKey: [UInt8], into serializer: inout DER.Serializer
    ) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { spki in
            try spki.appendConstructedNode(identifier: .sequence) { identifier in
                try identifier.serialize(oid)
            }
            try spki.serialize(ASN1BitString(bytes: ArraySlice(publicKey)))
        }
    }
}
