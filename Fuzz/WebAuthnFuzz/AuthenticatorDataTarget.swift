@testable import WebAuthn

/// Authenticator data (WebAuthn §6.1), its attested credential data and extensions.
enum AuthenticatorDataTarget {
    static func run(_ bytes: [UInt8]) {
        guard let data = try? AuthenticatorData(bytes: bytes) else { return }
        _ = data.flags.description
        if let credential = data.attestedCredentialData {
            _ = try? SignatureVerifier(coseKey: credential.publicKey)
        }
    }
}
