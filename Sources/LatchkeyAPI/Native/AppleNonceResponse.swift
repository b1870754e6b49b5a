import Foundation

/// The answer of `POST /v1/apple/nonce`: a single-use nonce for one Sign in with Apple from an app.
///
/// The app puts the SHA-256 (lowercase hex) of ``nonce`` in `ASAuthorizationAppleIDRequest.nonce` and sends ``nonce``
/// itself as `rawNonce` to `/v1/apple/signin` before ``expiresAt``; the server accepts each nonce once.
///
/// ```json
/// {"nonce":"q3V…","expiresAt":"2026-01-02T15:10:00Z"}
/// ```
public struct AppleNonceResponse: Codable, Hashable, Sendable {
    public var nonce: String
    public var expiresAt: Date

    public init(nonce: String, expiresAt: Date) {
        self.nonce = nonce
        self.expiresAt = expiresAt
    }
}
