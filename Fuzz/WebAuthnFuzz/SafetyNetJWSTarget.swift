@testable import WebAuthn

/// The SafetyNet response: a compact JWS with an x5c header, its payload, and the leaf's signature check.
enum SafetyNetJWSTarget {
    static func run(_ bytes: [UInt8]) {
        if let response = try? SafetyNetResponse(compact: bytes) {
            _ = try? response.jws.isSignedByLeaf()
        }
        let jws = try? CertificateJWS(compact: bytes, name: "fuzz", malformed: .metadataMalformed)
        _ = try? jws?.isSignedByLeaf()
    }
}
