@testable import WebAuthn

/// The attestation object (CBOR map of fmt, attStmt, authData).
enum AttestationObjectTarget {
    static func run(_ bytes: [UInt8]) {
        _ = try? AttestationObject(bytes: bytes)
    }
}
