// The package's only use of the ML-DSA (FIPS 204) types, for WebAuthn's verification and the virtual
// authenticator's keys.
//
// On Linux, swift-crypto implements `MLDSA65` and `MLDSA87` itself. On Apple platforms its `Crypto` module is
// CryptoKit, which declares them only in the iOS 26 / macOS 26 SDKs (CryptoKit 324.0.4, the version swift-crypto's
// own ML-DSA tests gate on) and has them only on those systems. So every use sits behind two gates: the SDK declares
// the types (`#if`, so the package also builds with an older Xcode) and the system has them (`if #available`).
// Elsewhere the keys below are nil and callers answer `unsupportedAlgorithm`.
//
// The SDK gate asks for CryptoKit's version first: once a plain `canImport(CryptoKit)` has been evaluated in a compile,
// the compiler (6.3, against the iOS 16.5 SDK) no longer finds the version, warns that it ignores it and takes the
// versioned check as true. So nothing else in the package asks `canImport(CryptoKit)`; the Apple SDK check greps for it.
//
// scripts/apple-sdk-check.sh compiles this file for iOS in Embedded Swift, so that availability is checked against a
// deployment target, with a CryptoKit stand-in that declares ML-DSA as Apple does: it may use only the standard
// library and Crypto.
#if canImport(CryptoKit, _version: 324.0.4) || !canImport(CryptoKit)
import Crypto

extension MLDSAParameterSet {
    package static var isAvailable: Bool {
        if #available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        return false
    }
}

extension MLDSAPublicKey {
    fileprivate static func check(
        _ parameterSet: MLDSAParameterSet, _ raw: [UInt8]
    ) throws -> (@Sendable ([UInt8], [UInt8]) -> Bool)? {
        guard #available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return nil }
        switch parameterSet {
        case .mlDSA65:
            let key = try MLDSA65.PublicKey(rawRepresentation: raw)
            return { key.isValidSignature($0, for: $1) }
        case .mlDSA87:
            let key = try MLDSA87.PublicKey(rawRepresentation: raw)
            return { key.isValidSignature($0, for: $1) }
        }
    }
}

extension MLDSAPrivateKey {
    fileprivate static func make(_ parameterSet: MLDSAParameterSet, seed: [UInt8]?) throws -> MLDSAPrivateKey? {
        guard #available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return nil }
        switch parameterSet {
        case .mlDSA65:
            let key =
                try seed.map { try MLDSA65.PrivateKey(seedRepresentation: $0, publicKey: nil) } ?? MLDSA65.PrivateKey()
            return MLDSAPrivateKey(
                parameterSet: parameterSet, seedRepresentation: Array(key.seedRepresentation),
                publicKeyRawRepresentation: Array(key.publicKey.rawRepresentation),
                sign: { Array(try key.signature(for: $0)) })
        case .mlDSA87:
            let key =
                try seed.map { try MLDSA87.PrivateKey(seedRepresentation: $0, publicKey: nil) } ?? MLDSA87.PrivateKey()
            return MLDSAPrivateKey(
                parameterSet: parameterSet, seedRepresentation: Array(key.seedRepresentation),
                publicKeyRawRepresentation: Array(key.publicKey.rawRepresentation),
                sign: { Array(try key.signature(for: $0)) })
        }
    }
}
#else
extension MLDSAParameterSet {
    package static var isAvailable: Bool { false }
}

extension MLDSAPublicKey {
    fileprivate static func check(_: MLDSAParameterSet, _: [UInt8]) -> (@Sendable ([UInt8], [UInt8]) -> Bool)? { nil }
}

extension MLDSAPrivateKey {
    fileprivate static func make(_: MLDSAParameterSet, seed _: [UInt8]?) -> MLDSAPrivateKey? { nil }
}
#endif

/// The ML-DSA parameter sets this package signs and verifies with (COSE `-49` and `-50`).
///
/// ``isAvailable`` says whether this system has ML-DSA: always on Linux, from iOS 26 and macOS 26 on Apple platforms
/// (built with their SDK).
package enum MLDSAParameterSet: Sendable {
    case mlDSA65, mlDSA87

    /// Why a key of this set cannot be used here, for `unsupportedAlgorithm` errors.
    package var unavailableReason: String {
        let name = self == .mlDSA65 ? "ML-DSA-65" : "ML-DSA-87"
        return "\(name) needs iOS 26 or macOS 26 and their SDK (CryptoKit has no ML-DSA before them)"
    }
}

/// An ML-DSA public key, checking signatures with an empty context as WebAuthn specifies.
package struct MLDSAPublicKey: Sendable {
    package let parameterSet: MLDSAParameterSet
    private let check: @Sendable ([UInt8], [UInt8]) -> Bool

    /// Reads a FIPS 204 public key; nil where this system has no ML-DSA, and an error when the bytes are not a key.
    package init?(_ parameterSet: MLDSAParameterSet, rawRepresentation raw: [UInt8]) throws {
        guard let check = try Self.check(parameterSet, raw) else { return nil }
        self.parameterSet = parameterSet
        self.check = check
    }

    package func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        check(signature, data)
    }
}

/// An ML-DSA private key, kept and exchanged as its 32-byte FIPS 204 seed.
package struct MLDSAPrivateKey: Sendable {
    package let parameterSet: MLDSAParameterSet
    /// The 32-byte seed (`ML-DSA.KeyGen_internal`'s input) the key is made from.
    package let seedRepresentation: [UInt8]
    /// The FIPS 204 encoding of the public key.
    package let publicKeyRawRepresentation: [UInt8]
    private let sign: @Sendable ([UInt8]) throws -> [UInt8]

    fileprivate init(
        parameterSet: MLDSAParameterSet, seedRepresentation: [UInt8], publicKeyRawRepresentation: [UInt8],
        sign: @escaping @Sendable ([UInt8]) throws -> [UInt8]
    ) {
        self.parameterSet = parameterSet
        self.seedRepresentation = seedRepresentation
        self.publicKeyRawRepresentation = publicKeyRawRepresentation
        self.sign = sign
    }

    /// Makes a new key; nil where this system has no ML-DSA.
    package static func generate(_ parameterSet: MLDSAParameterSet) throws -> MLDSAPrivateKey? {
        try make(parameterSet, seed: nil)
    }

    /// Loads a key from its seed; nil where this system has no ML-DSA, and an error when the seed is not 32 bytes.
    package static func load(_ parameterSet: MLDSAParameterSet, seedRepresentation seed: [UInt8]) throws
        -> MLDSAPrivateKey?
    {
        try make(parameterSet, seed: seed)
    }

    /// Signs `data` with an empty context.
    package func signature(for data: [UInt8]) throws -> [UInt8] {
        try sign(data)
    }
}
