/// `TPMT_PUBLIC` (TPM 2.0 Part 2 §12.2.4): the public area of the TPM key that is the credential key,
/// as the `tpm` statement's `pubArea` carries it. Only RSA and ECC keys are accepted.
struct TPMTPublic: Sendable, Hashable {
    /// The key's parameters and its public point or modulus (`parameters` and `unique`).
    enum Key: Sendable, Hashable {
        /// `keyBits`, the public exponent (0 in the structure means the default 65537) and the modulus.
        case rsa(keyBits: UInt16, exponent: UInt32, modulus: [UInt8])
        /// `curveID` (a `TPM_ECC_CURVE`) and the point.
        case ecc(curveID: UInt16, x: [UInt8], y: [UInt8])
    }

    static let algorithmRSA: UInt16 = 0x0001
    static let algorithmECC: UInt16 = 0x0023
    static let algorithmNull: UInt16 = 0x0010
    /// The exponent an RSA key has when its `exponent` field is 0.
    static let defaultRSAExponent: UInt32 = 65537

    /// `nameAlg`: the hash that computes the key's Name.
    let nameAlg: UInt16
    let objectAttributes: UInt32
    let authPolicy: [UInt8]
    /// The symmetric algorithm (`TPM_ALG_NULL` for signing keys).
    let symmetric: UInt16
    /// The signing scheme (`TPM_ALG_NULL` when the key is not restricted to one).
    let scheme: UInt16
    let key: Key
    /// The structure's bytes, from which the Name is computed.
    let rawValue: [UInt8]

    /// Parses a public area; the bytes must hold exactly one `TPMT_PUBLIC`.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = TPMReader(bytes, structure: "pubArea", check: "pubAreaMalformed")
        let type = try reader.uint16("type")
        guard type == Self.algorithmRSA || type == Self.algorithmECC else {
            throw reader.malformed("type 0x\(Hex.encode(Self.bigEndian(type))) is neither TPM_ALG_RSA nor TPM_ALG_ECC")
        }
        nameAlg = try reader.uint16("nameAlg")
        objectAttributes = try reader.uint32("objectAttributes")
        authPolicy = try reader.sized("authPolicy")
        symmetric = try Self.readSymmetricDefinition(&reader)
        scheme = try Self.readScheme(&reader, field: "scheme")
        if type == Self.algorithmRSA {
            let keyBits = try reader.uint16("keyBits")
            let exponent = try reader.uint32("exponent")
            let modulus = try reader.sized("unique (RSA modulus)")
            guard !modulus.isEmpty, modulus.count * 8 == Int(keyBits) else {
                throw reader.malformed("RSA modulus is \(modulus.count * 8) bits but keyBits says \(keyBits)")
            }
            key = .rsa(keyBits: keyBits, exponent: exponent, modulus: modulus)
        } else {
            let curveID = try reader.uint16("curveID")
            _ = try Self.readScheme(&reader, field: "kdf")
            let x = try reader.sized("unique x")
            let y = try reader.sized("unique y")
            guard !x.isEmpty, !y.isEmpty else { throw reader.malformed("has an empty ECC point") }
            key = .ecc(curveID: curveID, x: x, y: y)
        }
        try reader.finish()
        rawValue = bytes
    }

    /// The key in comparable form; nil for curves COSE has no identifier for.
    var keyMaterial: PublicKeyMaterial? {
        switch key {
        case .rsa(_, let exponent, let modulus):
            let e = exponent == 0 ? Self.defaultRSAExponent : exponent
            return .rsa(modulus: modulus, exponent: Self.bigEndian(e))
        case .ecc(let curveID, let x, let y):
            guard let curve = Self.coseCurve(curveID) else { return nil }
            return .ec(curve: curve, x: x, y: y)
        }
    }

    /// The COSE curve of a `TPM_ECC_CURVE` (NIST P-256, P-384, P-521).
    static func coseCurve(_ curveID: UInt16) -> Int? {
        switch curveID {
        case 0x0003: COSEKey.Curve.p256
        case 0x0004: COSEKey.Curve.p384
        case 0x0005: COSEKey.Curve.p521
        default: nil
        }
    }

    /// `TPMT_SYM_DEF_OBJECT`: an algorithm, then key size and mode unless it is `TPM_ALG_NULL`.
    private static func readSymmetricDefinition(_ reader: inout TPMReader) throws(WebAuthnError) -> UInt16 {
        let algorithm = try reader.uint16("symmetric algorithm")
        if algorithm != algorithmNull {
            _ = try reader.uint16("symmetric keyBits")
            _ = try reader.uint16("symmetric mode")
        }
        return algorithm
    }

    /// `TPMT_RSA_SCHEME`, `TPMT_ECC_SCHEME` or `TPMT_KDF_SCHEME`: a scheme, then its details, whose size
    /// depends on the scheme (none for NULL and RSAES, a hash and a count for ECDAA, a hash otherwise).
    private static func readScheme(_ reader: inout TPMReader, field: String) throws(WebAuthnError) -> UInt16 {
        let scheme = try reader.uint16("\(field) algorithm")
        switch scheme {
        case algorithmNull, 0x0015:  // TPM_ALG_NULL, TPM_ALG_RSAES
            break
        case 0x001A:  // TPM_ALG_ECDAA: hashAlg, count
            _ = try reader.uint16("\(field) hashAlg")
            _ = try reader.uint16("\(field) count")
        case 0x0014, 0x0016, 0x0017, 0x0018, 0x0019, 0x001B, 0x001C, 0x001D,  // RSASSA … ECMQV
            0x0007, 0x0020, 0x0021, 0x0022:  // MGF1, KDF1_SP800_56A, KDF2, KDF1_SP800_108
            _ = try reader.uint16("\(field) hashAlg")
        default:
            throw reader.malformed("\(field) algorithm 0x\(Hex.encode(bigEndian(scheme))) is not a known scheme")
        }
        return scheme
    }

    static func bigEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        (0..<Integer.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
