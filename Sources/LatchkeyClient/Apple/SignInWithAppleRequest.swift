import Crypto
import WebAuthn

/// The nonce that binds a Sign in with Apple identity token to one sign-in: the app keeps ``raw`` and
/// sends it to its server; the request carries ``sha256`` (lowercase hex), which Apple puts in the token's
/// `nonce` claim for the server to compare.
public struct SignInWithAppleNonce: Sendable, Hashable {
    /// The secret, random nonce (base64url of 32 random bytes).
    public let raw: String

    /// A fresh random nonce.
    public init() {
        raw = Base64URL.encode(RelyingParty.generateChallenge(byteCount: 32))
    }

    /// A nonce with a known value (for tests, or a server-issued nonce).
    public init(raw: String) {
        self.raw = raw
    }

    /// SHA-256 of ``raw`` as lowercase hex: the value for `ASAuthorizationAppleIDRequest.nonce`.
    public var sha256: String {
        Hex.encode(SHA256.hash(data: Array(raw.utf8)))
    }
}

/// What a Sign in with Apple request asks for, as seed 004 builds it: full name and email, the hashed nonce,
/// a state value, and optionally a saved-password request beside it.
public struct SignInWithAppleRequest: Sendable, Hashable {
    /// `ASAuthorization.Scope` raw values.
    public enum Scope: String, Sendable, Hashable {
        case fullName = "full_name"
        case email
    }

    public var scopes: [Scope]
    /// The nonce; send ``SignInWithAppleNonce/raw`` to the server with the identity token.
    public var nonce: SignInWithAppleNonce
    /// An opaque value echoed back in the credential, to match the response to this request.
    public var state: String
    /// Whether to also offer saved passwords (`ASAuthorizationPasswordProvider().createRequest()`).
    public var includesPasswordRequest: Bool

    /// A request for full name and email with a fresh nonce and state.
    public init(
        scopes: [Scope] = [.fullName, .email], nonce: SignInWithAppleNonce = SignInWithAppleNonce(),
        state: String = Base64URL.encode(RelyingParty.generateChallenge(byteCount: 16)), includesPasswordRequest: Bool = false
    ) {
        self.scopes = scopes
        self.nonce = nonce
        self.state = state
        self.includesPasswordRequest = includesPasswordRequest
    }

    /// Whether a credential's echoed `state` is this request's.
    public func matches(state returned: String?) -> Bool {
        returned == state
    }
}
