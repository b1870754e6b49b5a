import WebAuthn

/// A COSE_Key spelled out: key type, algorithm, curve and the key parameters in base64url.
struct COSEKeyReport: Encodable {
    let kty: NamedNumber
    let alg: NamedNumber
    let crv: NamedNumber?
    let x: String?
    let y: String?
    let n: String?
    let e: String?
    let pub: String?
    let keySizeBits: Int?
    /// The key as encoded, for pasting into `verify authentication --public-key`.
    let cose: String

    init(_ key: COSEKey) {
        kty = NamedNumber(number: key.keyType.rawValue, name: Self.keyTypeName(key.keyType))
        alg = NamedNumber(key.algorithm)
        cose = Base64URL.encode(key.rawBytes)
        var crv: NamedNumber?
        var x: String?
        var y: String?
        var n: String?
        var e: String?
        var pub: String?
        var bits: Int?
        switch key.parameters {
        case .ec2(let curve, let xBytes, let yBytes):
            crv = NamedNumber(number: curve, name: Self.curveName(curve))
            x = Base64URL.encode(xBytes)
            y = Base64URL.encode(yBytes)
            bits = xBytes.count * 8
        case .okp(let curve, let xBytes):
            crv = NamedNumber(number: curve, name: Self.curveName(curve))
            x = Base64URL.encode(xBytes)
            bits = xBytes.count * 8
        case .rsa(let modulus, let exponent):
            n = Base64URL.encode(modulus)
            e = Base64URL.encode(exponent)
            bits = Self.bitLength(modulus)
        case .akp(let publicKey):
            pub = Base64URL.encode(publicKey)
        }
        (self.crv, self.x, self.y, self.n, self.e, self.pub, self.keySizeBits) = (crv, x, y, n, e, pub, bits)
    }

    static func keyTypeName(_ type: COSEKey.KeyType) -> String {
        switch type {
        case .okp: "OKP"
        case .ec2: "EC2"
        case .rsa: "RSA"
        case .akp: "AKP"
        }
    }

    static func curveName(_ curve: Int) -> String {
        switch curve {
        case COSEKey.Curve.p256: "P-256"
        case COSEKey.Curve.p384: "P-384"
        case COSEKey.Curve.p521: "P-521"
        case COSEKey.Curve.x25519: "X25519"
        case COSEKey.Curve.x448: "X448"
        case COSEKey.Curve.ed25519: "Ed25519"
        case COSEKey.Curve.ed448: "Ed448"
        default: "unknown"
        }
    }

    /// The modulus size in bits, ignoring leading zero bytes.
    private static func bitLength(_ magnitude: [UInt8]) -> Int {
        guard let first = magnitude.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (magnitude.count - first - 1) * 8 + (8 - magnitude[first].leadingZeroBitCount)
    }
}
