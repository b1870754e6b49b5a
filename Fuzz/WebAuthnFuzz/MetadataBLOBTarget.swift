import Foundation
import FuzzSupport
import X509

@testable import WebAuthn

/// The FIDO MDS3 BLOB: the JWS, its chain against a root, and the payload JSON (also parsed directly, since a
/// fuzzer cannot forge the signature that guards it).
///
/// Input: the BLOB. The trust root is the first certificate of the BLOB's own x5c, so chain building runs too.
enum MetadataBLOBTarget {
    static let time = Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01, when the test BLOB is valid

    static func run(_ bytes: [UInt8]) {
        _ = try? MetadataBLOB(payloadJSON: bytes)
        let roots =
            (try? CertificateJWS(compact: bytes, name: "fuzz", malformed: .metadataMalformed))?.certificates.suffix(1)
            ?? []
        let verifier = MetadataBLOBVerifier(trustRoots: Array(roots))
        blocking { _ = try? await verifier.verify(bytes, at: time) }
    }
}
