@testable import WebAuthn

/// COSE keys, and their import into a signature verifier (curve points, RSA moduli, OKP keys).
enum COSEKeyTarget {
    static func run(_ bytes: [UInt8]) {
        guard let key = try? COSEKey(bytes: bytes) else { return }
        guard let verifier = try? SignatureVerifier(coseKey: key) else { return }
        _ = verifier
    }
}
