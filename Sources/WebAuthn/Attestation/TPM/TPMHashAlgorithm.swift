import Crypto

/// The hash functions a TPM attestation uses: the public area's `nameAlg` (a `TPM_ALG_ID`) and the
/// hash of the statement's `alg`, which computes `extraData`.
enum TPMHashAlgorithm: Sendable, Hashable {
    case sha1
    case sha256
    case sha384
    case sha512

    /// The hash named by a `TPMI_ALG_HASH` (TPM 2.0 Part 2 §6.3); nil for others (SM3, SHA3, `TPM_ALG_NULL`).
    init?(algorithmID: UInt16) {
        switch algorithmID {
        case 0x0004: self = .sha1
        case 0x000B: self = .sha256
        case 0x000C: self = .sha384
        case 0x000D: self = .sha512
        default: return nil
        }
    }

    /// The hash a signature algorithm uses (RS1 → SHA-1, RS256/PS256/ES256 → SHA-256, …); nil for algorithms
    /// without a separate hash step (EdDSA, ML-DSA) or unknown ones.
    init?(signatureAlgorithm alg: COSEAlgorithm) {
        switch alg {
        case .rs1: self = .sha1
        case .rs256, .ps256, .es256, .esp256: self = .sha256
        case .rs384, .ps384, .es384, .esp384: self = .sha384
        case .rs512, .ps512, .es512, .esp512: self = .sha512
        default: return nil
        }
    }

    func hash(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: Array(Insecure.SHA1.hash(data: data))
        case .sha256: Array(SHA256.hash(data: data))
        case .sha384: Array(SHA384.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        }
    }
}
