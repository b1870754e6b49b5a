import ByteEncoding
import Crypto

/// The nonce rule of Sign in with Apple: the app (or the web flow) keeps a random raw nonce, hands Apple its SHA-256
/// as lowercase hex, and Apple copies that hex into the identity token's `nonce` claim. The server receives the raw
/// nonce and checks that the token's claim is its hash, so a token cannot be replayed into another sign-in.
public enum AppleNonce {
    /// The value Apple is asked to embed for `rawNonce`: the lowercase hex SHA-256 of its UTF-8 bytes.
    public static func hashed(_ rawNonce: String) -> String {
        Hex.encode(SHA256.hash(data: Array(rawNonce.utf8)))
    }

    /// Checks the token's `nonce` claim against the expected raw nonce, if one is expected.
    /// - Throws: `apple.nonceMissing` when a nonce is expected and the token has none;
    ///   `apple.nonceMismatch` when the claim is not the hash of `expected`.
    static func check(claim: String?, expected rawNonce: String?) throws(AppleSignInError) {
        guard let rawNonce else { return }
        guard let claim, !claim.isEmpty else {
            throw AppleSignInError(.nonceMissing, "a nonce was expected and the token carries none")
        }
        // Both values are public (the raw nonce arrives with the token), so a plain comparison leaks nothing.
        guard claim.lowercased() == hashed(rawNonce) else {
            throw AppleSignInError(
                .nonceMismatch, "the token's nonce is not the SHA-256 of the nonce this sign-in started with")
        }
    }
}
