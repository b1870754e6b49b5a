import Crypto
import Foundation
import LatchkeyStore
import WebAuthn

/// The `allowCredentials` of a sign-in for a name no account has: made up, so the options cannot tell an
/// unknown name from a known one (user enumeration).
///
/// Each name's decoys are derived by HMAC-SHA256 from the name and a 32-byte server secret kept in the store (made
/// by the first instance that needs it, shared by every instance on the database), so asking twice, or asking
/// another instance, gives the same answer, as it would for a real account. The count and lengths follow what real
/// accounts have: mostly one passkey, sometimes two or three; IDs of 16 (Android), 20 (iCloud Keychain), 32 or 64
/// bytes (security keys), with the transports such authenticators report.
///
/// A sign-in begun with decoys fails at finish as one with a passkey of another account does.
final class DecoyCredentials: Sendable {
    /// The store's name of the secret.
    static let secretName = "decoy-credentials-v1"

    private let key: SharedSecretKey

    init(store: any ServerStateStore) {
        key = SharedSecretKey(store: store, name: Self.secretName)
    }

    /// The decoy descriptors for `name`; spellings that name one account (case, composition) get the same ones.
    func descriptors(for name: String) async throws -> [PublicKeyCredentialDescriptor] {
        let name = name.precomposedStringWithCanonicalMapping.lowercased()
        let key = try await key.value()
        let seed = Array(HMAC<SHA256>.authenticationCode(for: Data("count:\(name)".utf8), using: key))
        let count =
            switch seed[0] % 20 {
            case 0: 3
            case 1...4: 2
            default: 1
            }
        return (0..<count).map { index in
            let material = Array(
                HMAC<SHA256>.authenticationCode(for: Data("credential:\(index):\(name)".utf8), using: key))
            let shape = Self.shapes[Int(material[0]) % Self.shapes.count]
            var bytes: [UInt8] = []
            var block = 0
            while bytes.count < shape.length {
                bytes += HMAC<SHA256>.authenticationCode(for: Data("id:\(index):\(block):\(name)".utf8), using: key)
                block += 1
            }
            return PublicKeyCredentialDescriptor(id: Array(bytes.prefix(shape.length)), transports: shape.transports)
        }
    }

    /// The kinds of credential the decoys imitate: ID length and transports.
    private static let shapes: [(length: Int, transports: [AuthenticatorTransport])] = [
        (20, [.hybrid, .internal]), (20, [.hybrid, .internal]), (16, [.hybrid, .internal]),
        (32, [.hybrid, .internal]), (64, [.nfc, .usb]),
    ]
}
