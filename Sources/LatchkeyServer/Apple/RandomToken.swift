import LatchkeyStore
import WebAuthn

/// The random values Sign in with Apple flows hand out and take back (web `state`, app nonces): 32 random bytes,
/// base64url (43 URL-safe characters).
enum RandomToken {
    /// A new token.
    static func make() -> String {
        Base64URL.encode(RelyingParty.generateChallenge(byteCount: 32))
    }

    /// Whether `token` could be one of ours: 1 to 128 characters of `A–Z a–z 0–9 - _` (what the store accepts).
    static func isWellFormed(_ token: String) -> Bool {
        (1...SpentTicket.maximumIDLength).contains(token.utf8.count) && ASCIIText.consists(of: token, orAnyOf: "-_")
    }
}
