import Crypto
import LatchkeyAPI
import WebAuthn

/// The nonce that binds a Sign in with Apple identity token to one sign-in: the app keeps ``raw`` and sends it to its
/// server; the request carries ``sha256`` (lowercase hex), which Apple puts in the token's `nonce` claim for the
/// server to compare. Latchkey's server accepts only nonces it issued: `SignInWithAppleNonce(raw:)` with
/// ``NativeClient/appleNonce()``'s `nonce`.
public struct SignInWithAppleNonce: Sendable, Hashable {
    /// The secret, random nonce (base64url of 32 random bytes).
    public let raw: String

    /// A fresh random nonce made on the device, for servers that take the app's own nonce. Latchkey's server
    /// refuses it (`apple.nonceInvalid`): use ``init(raw:)`` with ``NativeClient/appleNonce()``'s `nonce`.
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

/// What a Sign in with Apple request asks for: the scopes (full name and email by default), the hashed nonce and a
/// state value the credential must echo.
public struct SignInWithAppleRequest: Sendable, Hashable {
    /// `ASAuthorization.Scope` raw values.
    public enum Scope: String, Sendable, Hashable {
        /// The user's name (first sign-in only).
        case fullName = "full_name"
        /// The user's email address, real or private relay (first sign-in only).
        case email
    }

    /// The scopes asked for.
    public var scopes: [Scope]
    /// The nonce; send ``SignInWithAppleNonce/raw`` to the server with the identity token.
    public var nonce: SignInWithAppleNonce
    /// An opaque value echoed back in the credential, to match the response to this request.
    public var state: String

    /// A request for `scopes` with a fresh nonce and state.
    public init(
        scopes: [Scope] = [.fullName, .email], nonce: SignInWithAppleNonce = SignInWithAppleNonce(),
        state: String = Base64URL.encode(RelyingParty.generateChallenge(byteCount: 16))
    ) {
        self.scopes = scopes
        self.nonce = nonce
        self.state = state
    }

    /// Whether a credential's echoed `state` is this request's (compared in constant time).
    public func matches(state returned: String?) -> Bool {
        guard let returned else { return false }
        return constantTimeEquals(returned.utf8, state.utf8)
    }

    /// `credential` when it answers this request: its `state` is this request's and it carries an identity token.
    /// - Throws: ``AuthenticatorError/Code/failed`` otherwise.
    func checked(_ credential: AppleIDCredential) throws(AuthenticatorError) -> AppleIDCredential {
        guard matches(state: credential.state) else {
            throw AuthenticatorError(.failed, "the Sign in with Apple credential does not echo this request's state")
        }
        guard credential.identityToken?.isEmpty == false else {
            throw AuthenticatorError(.failed, "Sign in with Apple returned no identity token")
        }
        return credential
    }

    /// The body of `POST /v1/apple/signin` for `credential`, checked against this request, with this request's raw nonce.
    /// - Throws: ``AuthenticatorError/Code/failed`` when `credential` does not answer this request.
    public func signInRequest(for credential: AppleIDCredential) throws(AuthenticatorError) -> AppleSignInRequest {
        try checked(credential).signInRequest(rawNonce: nonce.raw)
    }
}
