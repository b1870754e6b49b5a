@testable import WebAuthn

/// The Android Keystore key description extension (DER), as android-key attestation reads it.
enum AndroidKeyDescriptionTarget {
    static func run(_ bytes: [UInt8]) {
        _ = try? AndroidKeyDescription(derEncoded: bytes)
    }
}
