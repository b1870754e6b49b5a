/// A COSE algorithm identifier (IANA "COSE Algorithms" registry).
public struct COSEAlgorithm: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The COSE algorithm number (negative for signatures).
    public let rawValue: Int
    /// The algorithm with this COSE number, known or not.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// ECDSA with P-256 and SHA-256 (-7).
    public static let es256 = COSEAlgorithm(rawValue: -7)
    /// ECDSA with P-384 and SHA-384 (-35).
    public static let es384 = COSEAlgorithm(rawValue: -35)
    /// ECDSA with P-521 and SHA-512 (-36).
    public static let es512 = COSEAlgorithm(rawValue: -36)
    /// ECDSA P-256 with SHA-256, fully specified (RFC 9864).
    public static let esp256 = COSEAlgorithm(rawValue: -9)
    /// ECDSA with P-384 and SHA-384, fully specified (-51).
    public static let esp384 = COSEAlgorithm(rawValue: -51)
    /// ECDSA with P-521 and SHA-512, fully specified (-52).
    public static let esp512 = COSEAlgorithm(rawValue: -52)
    /// EdDSA (-8); the curve comes from the key (Ed25519 supported).
    public static let edDSA = COSEAlgorithm(rawValue: -8)
    /// Ed25519, fully specified (-19).
    public static let ed25519 = COSEAlgorithm(rawValue: -19)
    /// Ed448, fully specified (-53); not supported by swift-crypto.
    public static let ed448 = COSEAlgorithm(rawValue: -53)
    /// RSASSA-PKCS1-v1_5 with SHA-256 (-257).
    public static let rs256 = COSEAlgorithm(rawValue: -257)
    /// RSASSA-PKCS1-v1_5 with SHA-384 (-258).
    public static let rs384 = COSEAlgorithm(rawValue: -258)
    /// RSASSA-PKCS1-v1_5 with SHA-512 (-259).
    public static let rs512 = COSEAlgorithm(rawValue: -259)
    /// RSASSA-PKCS1-v1_5 with SHA-1: required by the FIDO conformance tools, insecure, never offered by default.
    public static let rs1 = COSEAlgorithm(rawValue: -65535)
    /// RSASSA-PSS with SHA-256 (-37).
    public static let ps256 = COSEAlgorithm(rawValue: -37)
    /// RSASSA-PSS with SHA-384 (-38).
    public static let ps384 = COSEAlgorithm(rawValue: -38)
    /// RSASSA-PSS with SHA-512 (-39).
    public static let ps512 = COSEAlgorithm(rawValue: -39)
    /// ML-DSA-44 (-48); not supported by swift-crypto.
    public static let mlDSA44 = COSEAlgorithm(rawValue: -48)
    /// ML-DSA-65 (-49).
    public static let mlDSA65 = COSEAlgorithm(rawValue: -49)
    /// ML-DSA-87 (-50).
    public static let mlDSA87 = COSEAlgorithm(rawValue: -50)

    /// Every algorithm Latchkey can verify.
    public static let verifiable: [COSEAlgorithm] = [
        .es256, .esp256, .es384, .esp384, .es512, .esp512, .edDSA, .ed25519,
        .rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .rs1, .mlDSA65, .mlDSA87,
    ]

    /// What a relying party offers in `pubKeyCredParams` by default, most preferred first. RS1 is left out.
    public static let defaultOffered: [COSEAlgorithm] = [
        .es256, .edDSA, .es384, .es512, .ps256, .ps384, .ps512, .rs256, .rs384, .rs512, .mlDSA65, .mlDSA87,
    ]

    /// Every algorithm Latchkey knows the name of, verifiable or not.
    public static let known: [COSEAlgorithm] = verifiable + [.ed448, .mlDSA44]

    /// The algorithm's name (`ES256`, `RS256`, …), or `COSE(<number>)` for an unknown one.
    public var name: String {
        switch self {
        case .es256: "ES256"
        case .es384: "ES384"
        case .es512: "ES512"
        case .esp256: "ESP256"
        case .esp384: "ESP384"
        case .esp512: "ESP512"
        case .edDSA: "EdDSA"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .rs256: "RS256"
        case .rs384: "RS384"
        case .rs512: "RS512"
        case .rs1: "RS1"
        case .ps256: "PS256"
        case .ps384: "PS384"
        case .ps512: "PS512"
        case .mlDSA44: "ML-DSA-44"
        case .mlDSA65: "ML-DSA-65"
        case .mlDSA87: "ML-DSA-87"
        default: "COSE(\(rawValue))"
        }
    }

    /// Looks an algorithm up by its name (`ES256`, `ml-dsa-65`, …) or its number.
    public init?(name: String) {
        if let number = Int(name) {
            self.init(rawValue: number)
            return
        }
        let wanted = name.uppercased()
        guard let match = COSEAlgorithm.known.first(where: { $0.name.uppercased() == wanted }) else { return nil }
        self = match
    }

    /// `<name> (<number>)`.
    public var description: String { "\(name) (\(rawValue))" }

    /// Decodes the COSE number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encodes the COSE number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
