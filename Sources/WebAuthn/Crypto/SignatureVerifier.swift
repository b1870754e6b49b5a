import Crypto
import CryptoExtras
import Foundation
import X509

/// A public key made ready to check signatures under one COSE algorithm.
///
/// Build it once per key (``init(coseKey:)`` for credential keys, ``init(certificateKey:algorithm:)`` for
/// attestation certificates); `isValidSignature(_:for:)` then does no parsing beyond the signature itself.
public struct SignatureVerifier: Sendable {
    /// Unchecked because Apple's SDKs before Xcode 16.3 declare CryptoKit's public keys (immutable values) without
    /// `Sendable`; with those SDKs the checked form does not compile, and nothing here shares mutable state.
    enum Key: @unchecked Sendable {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey, padding: RSAPadding, hash: RSAHash)
        case mlDSA(MLDSAPublicKey)
    }

    enum RSAPadding: Sendable { case pkcs1, pss }
    enum RSAHash: Sendable { case sha1, sha256, sha384, sha512 }

    let key: Key
    /// The algorithm signatures are checked under.
    public let algorithm: COSEAlgorithm

    /// Prepares a credential public key, checking that its key type and curve fit its algorithm.
    public init(coseKey: COSEKey) throws(WebAuthnError) {
        let alg = coseKey.algorithm
        algorithm = alg
        do {
            switch (coseKey.parameters, alg) {
            case (.ec2(let curve, let x, let y), .es256), (.ec2(let curve, let x, let y), .esp256):
                try Self.expect(curve == COSEKey.Curve.p256, "ES256 key is not on P-256 (crv \(curve))")
                key = .p256(try P256.Signing.PublicKey(rawRepresentation: x + y))
            case (.ec2(let curve, let x, let y), .es384), (.ec2(let curve, let x, let y), .esp384):
                try Self.expect(curve == COSEKey.Curve.p384, "ES384 key is not on P-384 (crv \(curve))")
                key = .p384(try P384.Signing.PublicKey(rawRepresentation: x + y))
            case (.ec2(let curve, let x, let y), .es512), (.ec2(let curve, let x, let y), .esp512):
                try Self.expect(curve == COSEKey.Curve.p521, "ES512 key is not on P-521 (crv \(curve))")
                key = .p521(try P521.Signing.PublicKey(rawRepresentation: x + y))
            case (.okp(let curve, let x), .edDSA), (.okp(let curve, let x), .ed25519):
                if curve == COSEKey.Curve.ed448 {
                    throw WebAuthnError(
                        .unsupportedAlgorithm, "Ed448 keys cannot be verified (swift-crypto has no Ed448)")
                }
                try Self.expect(curve == COSEKey.Curve.ed25519, "EdDSA key curve \(curve) is not Ed25519")
                key = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            case (.okp, .ed448):
                throw WebAuthnError(.unsupportedAlgorithm, "Ed448 keys cannot be verified (swift-crypto has no Ed448)")
            case (.rsa(let n, let e), _):
                guard let (padding, hash) = Self.rsaScheme(alg) else { throw Self.mismatch(coseKey) }
                key = .rsa(try _RSA.Signing.PublicKey(n: n, e: e), padding: padding, hash: hash)
            case (.akp(let publicKey), .mlDSA65):
                key = .mlDSA(try Self.mlDSAKey(.mlDSA65, publicKey))
            case (.akp(let publicKey), .mlDSA87):
                key = .mlDSA(try Self.mlDSAKey(.mlDSA87, publicKey))
            case (.akp, .mlDSA44):
                throw WebAuthnError(
                    .unsupportedAlgorithm,
                    "ML-DSA-44 keys cannot be verified (swift-crypto has ML-DSA-65 and ML-DSA-87 only)")
            default:
                if !COSEAlgorithm.known.contains(alg) {
                    throw WebAuthnError(.unsupportedAlgorithm, "COSE algorithm \(alg.rawValue) is not supported")
                }
                throw Self.mismatch(coseKey)
            }
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.publicKeyMalformed, "the \(alg.name) public key is not valid")
        }
    }

    /// Prepares an attestation certificate's key to check a statement signed with `algorithm`.
    public init(certificateKey: Certificate.PublicKey, algorithm alg: COSEAlgorithm) throws(WebAuthnError) {
        algorithm = alg
        func unfit() -> WebAuthnError {
            WebAuthnError(.algorithmNotAllowed, "the certificate's key cannot verify \(alg.name) signatures")
        }
        switch alg {
        case .es256, .esp256:
            guard let k = P256.Signing.PublicKey(certificateKey) else { throw unfit() }
            key = .p256(k)
        case .es384, .esp384:
            guard let k = P384.Signing.PublicKey(certificateKey) else { throw unfit() }
            key = .p384(k)
        case .es512, .esp512:
            guard let k = P521.Signing.PublicKey(certificateKey) else { throw unfit() }
            key = .p521(k)
        case .edDSA, .ed25519:
            guard let k = Curve25519.Signing.PublicKey(certificateKey) else { throw unfit() }
            key = .ed25519(k)
        default:
            guard let (padding, hash) = Self.rsaScheme(alg) else {
                throw WebAuthnError(.unsupportedAlgorithm, "\(alg) is not supported for attestation certificates")
            }
            guard let k = _RSA.Signing.PublicKey(certificateKey) else { throw unfit() }
            key = .rsa(k, padding: padding, hash: hash)
        }
    }

    /// Checks `signature` over `data`. ECDSA signatures are ASN.1 DER, as WebAuthn specifies.
    public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
        check(Array(signature), Array(data))
    }

    /// Checks `signature` over `data` (the concrete form the ceremonies use: swift-crypto's generic entry points are
    /// specialised here for arrays instead of going through `DataProtocol` at run time).
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        check(signature, data)
    }

    private func check(_ signature: [UInt8], _ data: [UInt8]) -> Bool {
        switch key {
        case .p256(let k):
            guard let sig = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return k.isValidSignature(sig, for: data)
        case .p384(let k):
            guard let sig = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return k.isValidSignature(sig, for: data)
        case .p521(let k):
            guard let sig = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return k.isValidSignature(sig, for: data)
        case .ed25519(let k):
            return k.isValidSignature(signature, for: data)
        case .rsa(let k, let padding, let hash):
            let sig = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let rsaPadding: _RSA.Signing.Padding = padding == .pss ? .PSS : .insecurePKCS1v1_5
            switch hash {
            case .sha1: return k.isValidSignature(sig, for: Insecure.SHA1.hash(data: data), padding: rsaPadding)
            case .sha256: return k.isValidSignature(sig, for: SHA256.hash(data: data), padding: rsaPadding)
            case .sha384: return k.isValidSignature(sig, for: SHA384.hash(data: data), padding: rsaPadding)
            case .sha512: return k.isValidSignature(sig, for: SHA512.hash(data: data), padding: rsaPadding)
            }
        case .mlDSA(let k):
            return k.isValidSignature(signature, for: data)
        }
    }

    static func rsaScheme(_ alg: COSEAlgorithm) -> (RSAPadding, RSAHash)? {
        switch alg {
        case .rs1: (.pkcs1, .sha1)
        case .rs256: (.pkcs1, .sha256)
        case .rs384: (.pkcs1, .sha384)
        case .rs512: (.pkcs1, .sha512)
        case .ps256: (.pss, .sha256)
        case .ps384: (.pss, .sha384)
        case .ps512: (.pss, .sha512)
        default: nil
        }
    }

    /// An ML-DSA key, or `unsupportedAlgorithm` on a system without ML-DSA (Apple platforms before iOS 26 / macOS 26).
    private static func mlDSAKey(_ parameterSet: MLDSAParameterSet, _ raw: [UInt8]) throws -> MLDSAPublicKey {
        guard let key = try MLDSAPublicKey(parameterSet, rawRepresentation: raw) else {
            throw WebAuthnError(.unsupportedAlgorithm, parameterSet.unavailableReason)
        }
        return key
    }

    private static func expect(_ condition: Bool, _ message: String) throws(WebAuthnError) {
        if !condition { throw WebAuthnError(.publicKeyMalformed, message) }
    }

    private static func mismatch(_ key: COSEKey) -> WebAuthnError {
        WebAuthnError(.publicKeyMalformed, "a \(key.keyType) key cannot be used with \(key.algorithm.name)")
    }
}
