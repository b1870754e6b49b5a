import ByteEncoding
import Crypto
import Foundation

/// Encrypts small secrets at rest (Apple refresh tokens) with AES-256-GCM under a 32-byte key from configuration.
///
/// Sealed format, version 1: `0x01 ‖ nonce (12) ‖ ciphertext ‖ tag (16)`. The version byte is authenticated as
/// associated data, together with any caller-supplied context (e.g. the user ID, so a sealed value cannot be moved
/// to another row). Opening with a wrong key, a wrong context, a tampered box or an unknown version throws
/// `apple.secretBox.openFailed`.
public struct SecretBox: Sendable, CustomStringConvertible {
    /// The current format version.
    public static let version: UInt8 = 1
    private let key: SymmetricKey

    /// Makes a box from a 32-byte key. Throws `apple.secretBox.keyInvalid` for any other length.
    public init(key bytes: [UInt8]) throws(AppleSignInError) {
        guard bytes.count == 32 else {
            throw AppleSignInError(.secretBoxKeyInvalid, "the secrets key must be 32 bytes, not \(bytes.count)")
        }
        self.key = SymmetricKey(data: bytes)
    }

    /// Makes a box from a base64 key (standard or URL alphabet).
    public init(base64Key text: String) throws(AppleSignInError) {
        guard let bytes = Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw AppleSignInError(.secretBoxKeyInvalid, "the secrets key is not base64")
        }
        try self.init(key: bytes)
    }

    /// A description that never shows the key.
    public var description: String { "SecretBox(v\(Self.version), key: <redacted>)" }

    /// Encrypts `plaintext`, binding it to `context`.
    public func seal(_ plaintext: [UInt8], context: [UInt8] = []) throws(AppleSignInError) -> [UInt8] {
        // With the default 12-byte nonce, `combined` is always present.
        guard let box = try? AES.GCM.seal(plaintext, using: key, authenticating: [Self.version] + context),
            let combined = box.combined
        else {
            throw AppleSignInError(.secretBoxSealFailed, "AES-GCM sealing failed")
        }
        return [Self.version] + Array(combined)
    }

    /// Decrypts a sealed value made by ``seal(_:context:)`` with the same key and context.
    public func open(_ sealed: [UInt8], context: [UInt8] = []) throws(AppleSignInError) -> [UInt8] {
        guard let version = sealed.first, version == Self.version else {
            throw AppleSignInError(.secretBoxOpenFailed, "the sealed value has an unknown format version")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.dropFirst())
            return Array(try AES.GCM.open(box, using: key, authenticating: [version] + context))
        } catch {
            throw AppleSignInError(
                .secretBoxOpenFailed, "the sealed value was not opened: wrong key or context, or tampered")
        }
    }

    /// Encrypts text and returns base64url, for text columns.
    public func seal(text: String, context: String = "") throws(AppleSignInError) -> String {
        Base64URL.encode(try seal(Array(text.utf8), context: Array(context.utf8)))
    }

    /// Decrypts base64url made by ``seal(text:context:)``.
    public func open(text sealed: String, context: String = "") throws(AppleSignInError) -> String {
        guard let bytes = Base64URL.decode(sealed) else {
            throw AppleSignInError(.secretBoxOpenFailed, "the sealed value is not base64url")
        }
        return String(decoding: try open(bytes, context: Array(context.utf8)), as: UTF8.self)
    }
}
