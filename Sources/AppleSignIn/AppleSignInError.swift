/// The one error type of the AppleSignIn module: a stable machine-readable ``code`` and a human ``message``.
///
/// Codes are dotted strings under `apple.` (`apple.tokenExpired`, `apple.invalidGrant`). They are public API:
/// servers return them to clients and tests assert them, so a code never changes meaning once shipped.
/// Messages never contain secrets (tokens, client secrets, keys).
public struct AppleSignInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable code.
    public let code: Code
    /// A human sentence explaining the failure.
    public let message: String

    /// Makes an error with a code and a message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "\(code.rawValue): \(message)" }

    /// A stable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The code as text, e.g. `apple.tokenExpired`.
        public let rawValue: String
        /// A code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The code as text.
        public var description: String { rawValue }
    }
}

extension AppleSignInError.Code {
    // Token shape and signature
    /// The token is not a compact JWS with a JSON header and payload.
    public static let malformedToken: Self = "apple.malformedToken"
    /// The header's `alg` is not RS256 (`none`, HS256, ES256, …).
    public static let algorithmNotAllowed: Self = "apple.algorithmNotAllowed"
    /// No key in Apple's key set has the header's `kid`, even after a refetch.
    public static let unknownKey: Self = "apple.unknownKey"
    /// The RS256 signature does not verify under the key named by `kid`.
    public static let badSignature: Self = "apple.badSignature"

    // Claims
    /// `iss` is not `https://appleid.apple.com`.
    public static let issuerMismatch: Self = "apple.issuerMismatch"
    /// `aud` is none of the configured client IDs.
    public static let audienceMismatch: Self = "apple.audienceMismatch"
    /// `exp` is in the past (beyond the leeway).
    public static let tokenExpired: Self = "apple.tokenExpired"
    /// `iat` is in the future (beyond the leeway).
    public static let issuedInFuture: Self = "apple.issuedInFuture"
    /// A required claim is absent or has the wrong type.
    public static let claimMissing: Self = "apple.claimMissing"
    /// The token's `nonce` is not the SHA-256 hex of the expected raw nonce.
    public static let nonceMismatch: Self = "apple.nonceMismatch"
    /// A nonce was expected and the token carries none.
    public static let nonceMissing: Self = "apple.nonceMissing"

    // Keys endpoint
    /// Apple's keys could not be fetched and no usable cached copy exists.
    public static let keysUnavailable: Self = "apple.keysUnavailable"
    /// Apple's key set is not valid JWKS JSON.
    public static let keysMalformed: Self = "apple.keysMalformed"

    // Client secret
    /// The `.p8` private key could not be read as a PKCS#8 P-256 key.
    public static let privateKeyInvalid: Self = "apple.privateKeyInvalid"
    /// The client-secret lifetime is not within (0, 6 months].
    public static let clientSecretLifetime: Self = "apple.clientSecretLifetime"

    // Token endpoint (Apple's `error` values)
    /// `invalid_grant`: the code or refresh token expired, was already used, or was revoked.
    public static let invalidGrant: Self = "apple.invalidGrant"
    /// `invalid_client`: the client ID or client secret is wrong (bad signature, claims, or expired secret).
    public static let invalidClient: Self = "apple.invalidClient"
    /// `invalid_request`: a parameter is missing or malformed (e.g. `redirect_uri`).
    public static let invalidRequest: Self = "apple.invalidRequest"
    /// `unauthorized_client`: the client may not use this grant type.
    public static let unauthorizedClient: Self = "apple.unauthorizedClient"
    /// `unsupported_grant_type`.
    public static let unsupportedGrantType: Self = "apple.unsupportedGrantType"
    /// `invalid_scope`.
    public static let invalidScope: Self = "apple.invalidScope"
    /// Apple answered with an error this library does not know, or an unexpected status.
    public static let appleError: Self = "apple.unexpectedResponse"
    /// Apple could not be reached (network failure, timeout).
    public static let unreachable: Self = "apple.unreachable"

    // Notifications
    /// The notification body is not `{"payload": JWS}` or its `events` claim is not the expected JSON.
    public static let malformedNotification: Self = "apple.malformedNotification"
    /// The notification's event `type` is not one Apple documents.
    public static let unknownEventType: Self = "apple.unknownEventType"

    // SecretBox
    /// The sealed box was not opened: wrong key, tampered bytes, or unknown format version.
    public static let secretBoxOpenFailed: Self = "apple.secretBox.openFailed"
    /// AES-GCM sealing failed (not expected with a valid key).
    public static let secretBoxSealFailed: Self = "apple.secretBox.sealFailed"
    /// The SecretBox key is not 32 bytes.
    public static let secretBoxKeyInvalid: Self = "apple.secretBox.keyInvalid"
}
