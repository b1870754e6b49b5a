import CBOR

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053), as authenticators encode it.
public struct COSEKey: Sendable, Hashable {
    /// COSE key types (`kty`, label 1).
    public enum KeyType: Int, Sendable, Hashable {
        /// Octet key pair (EdDSA).
        case okp = 1
        /// Elliptic curve with x and y.
        case ec2 = 2
        /// RSA.
        case rsa = 3
        /// Algorithm Key Pair (ML-DSA).
        case akp = 7
    }

    /// The key material by key type.
    public enum Parameters: Sendable, Hashable {
        /// An EC2 key: curve and coordinates.
        case ec2(curve: Int, x: [UInt8], y: [UInt8])
        /// An OKP key: curve and public key.
        case okp(curve: Int, x: [UInt8])
        /// An RSA key: modulus and exponent.
        case rsa(n: [UInt8], e: [UInt8])
        /// An algorithm key pair (ML-DSA): the public key.
        case akp(publicKey: [UInt8])
    }

    /// COSE curve identifiers (`crv`, label -1).
    public enum Curve {
        /// P-256.
        public static let p256 = 1
        /// P-384.
        public static let p384 = 2
        /// P-521.
        public static let p521 = 3
        /// X25519.
        public static let x25519 = 4
        /// X448.
        public static let x448 = 5
        /// Ed25519.
        public static let ed25519 = 6
        /// Ed448.
        public static let ed448 = 7
    }

    /// The key's COSE algorithm (`alg`, label 3).
    public let algorithm: COSEAlgorithm
    /// The key material.
    public let parameters: Parameters
    /// The encoded key, as stored.
    public let rawBytes: [UInt8]

    /// The key type its parameters have.
    public var keyType: KeyType {
        switch parameters {
        case .ec2: .ec2
        case .okp: .okp
        case .rsa: .rsa
        case .akp: .akp
        }
    }

    /// Parses a COSE_Key from its CBOR encoding.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        if bytes.count == Self.canonicalES256Length, let key = Self.canonicalES256(prefixOf: bytes[...]) {
            self = key
            return
        }
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(bytes)
        } catch {
            throw WebAuthnError.cbor(error, in: "COSE public key", code: .publicKeyMalformed)
        }
        try self.init(cbor: value, rawBytes: bytes)
    }

    init(cbor value: CBORValue, rawBytes: [UInt8]) throws(WebAuthnError) {
        guard let map = value.mapValue else {
            throw WebAuthnError(.publicKeyMalformed, "COSE public key is not a CBOR map")
        }
        guard let ktyValue = map[int: 1]?.intValue, let kty = KeyType(rawValue: ktyValue) else {
            throw WebAuthnError(
                .publicKeyMalformed,
                "COSE key type (1) is missing or not supported: \(map[int: 1].map { "\($0)" } ?? "absent")")
        }
        guard let alg = map[int: 3]?.intValue else {
            throw WebAuthnError(.publicKeyMalformed, "COSE key has no algorithm (3)")
        }
        func bytes(_ label: Int, _ name: String) throws(WebAuthnError) -> [UInt8] {
            guard let value = map[int: label]?.bytesValue, !value.isEmpty else {
                throw WebAuthnError(.publicKeyMalformed, "COSE \(kty) key has no \(name) (\(label))")
            }
            return value
        }
        func curve() throws(WebAuthnError) -> Int {
            guard let crv = map[int: -1]?.intValue else {
                throw WebAuthnError(.publicKeyMalformed, "COSE \(kty) key has no curve (-1)")
            }
            return crv
        }
        switch kty {
        case .ec2:
            parameters = .ec2(curve: try curve(), x: try bytes(-2, "x"), y: try bytes(-3, "y"))
        case .okp:
            parameters = .okp(curve: try curve(), x: try bytes(-2, "x"))
        case .rsa:
            parameters = .rsa(n: try bytes(-1, "n"), e: try bytes(-2, "e"))
        case .akp:
            parameters = .akp(publicKey: try bytes(-1, "pub"))
        }
        self.algorithm = COSEAlgorithm(rawValue: alg)
        self.rawBytes = rawBytes
    }

    /// The CTAP2 canonical encoding of an ES256 P-256 key — what nearly every passkey stores — is one fixed layout:
    /// `{1: 2, 3: -7, -1: 1, -2: x, -3: y}` with 32-byte coordinates. Recognising it directly skips the general decoder.
    private static let es256Layout: [(offset: Int, bytes: [UInt8])] = [
        (0, [0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
        (42, [0x22, 0x58, 0x20]),
    ]

    static let canonicalES256Length = 77

    /// The canonical ES256 key at the start of `bytes`, if that is what they begin with.
    static func canonicalES256(prefixOf bytes: ArraySlice<UInt8>) -> COSEKey? {
        guard bytes.count >= canonicalES256Length else { return nil }
        let start = bytes.startIndex
        for part in es256Layout
        where !bytes[start + part.offset..<start + part.offset + part.bytes.count].elementsEqual(part.bytes) {
            return nil
        }
        return COSEKey(
            algorithm: .es256,
            parameters: .ec2(
                curve: Curve.p256, x: Array(bytes[start + 10..<start + 42]), y: Array(bytes[start + 45..<start + 77])),
            rawBytes: Array(bytes[start..<start + canonicalES256Length])
        )
    }

    private init(algorithm: COSEAlgorithm, parameters: Parameters, rawBytes: [UInt8]) {
        self.algorithm = algorithm
        self.parameters = parameters
        self.rawBytes = rawBytes
    }

    /// Builds a key from parts and encodes it canonically.
    public init(algorithm: COSEAlgorithm, parameters: Parameters) {
        self.algorithm = algorithm
        self.parameters = parameters
        var map = CBORMap()
        switch parameters {
        case .ec2(let curve, let x, let y):
            map[.int(1)] = .int(KeyType.ec2.rawValue)
            map[.int(-1)] = .int(curve)
            map[.int(-2)] = .byteString(x)
            map[.int(-3)] = .byteString(y)
        case .okp(let curve, let x):
            map[.int(1)] = .int(KeyType.okp.rawValue)
            map[.int(-1)] = .int(curve)
            map[.int(-2)] = .byteString(x)
        case .rsa(let n, let e):
            map[.int(1)] = .int(KeyType.rsa.rawValue)
            map[.int(-1)] = .byteString(n)
            map[.int(-2)] = .byteString(e)
        case .akp(let publicKey):
            map[.int(1)] = .int(KeyType.akp.rawValue)
            map[.int(-1)] = .byteString(publicKey)
        }
        map[.int(3)] = .int(algorithm.rawValue)
        self.rawBytes = CBOREncoder.encode(.map(map))
    }
}
