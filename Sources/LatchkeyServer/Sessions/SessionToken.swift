import Crypto
import Foundation
import WebAuthn

/// An opaque session token: 32 random bytes, sent as base64url. The server stores only its SHA-256
/// (``hash``), so the database never holds a usable token.
struct SessionToken: Sendable {
    static let byteCount = 32

    /// The token as the client holds it.
    let text: String
    /// SHA-256 of the token bytes, as ``LatchkeyStore/StoredSession/tokenHash``.
    let hash: Data

    /// A fresh random token.
    static func generate() -> SessionToken {
        let bytes = RelyingParty.generateChallenge(byteCount: byteCount)
        return SessionToken(text: Base64URL.encode(bytes), hash: Data(SHA256.hash(data: bytes)))
    }

    /// The token a client presented, or nil if it cannot be one of ours: wrong length or alphabet, or not the
    /// canonical base64url of its bytes (no padding, no `+` or `/`, unused low bits zero). Only one spelling of a
    /// token is accepted, so none can be told apart from the token in logs or caches keyed by its text.
    init?(presented text: some StringProtocol) {
        guard text.utf8.count == 43, let bytes = Base64URL.decode(text), bytes.count == Self.byteCount,
            Base64URL.encode(bytes) == text
        else { return nil }
        self.text = String(text)
        self.hash = Data(SHA256.hash(data: bytes))
    }

    private init(text: String, hash: Data) {
        self.text = text
        self.hash = hash
    }
}
