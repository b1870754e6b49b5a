@testable import WebAuthn

/// TPMS_ATTEST (certInfo) and TPMT_PUBLIC (pubArea), each from the whole input.
enum TPMStructuresTarget {
    static func run(_ bytes: [UInt8]) {
        _ = try? TPMSAttest(bytes: bytes)
        _ = try? TPMTPublic(bytes: bytes)
    }
}
