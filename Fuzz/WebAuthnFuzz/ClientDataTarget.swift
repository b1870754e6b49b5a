@testable import WebAuthn

/// clientDataJSON (WebAuthn §5.8.1).
enum ClientDataTarget {
    static func run(_ bytes: [UInt8]) {
        _ = try? CollectedClientData(bytes: bytes)
    }
}
