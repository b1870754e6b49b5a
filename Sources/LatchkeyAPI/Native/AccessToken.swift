import Foundation

/// An access token for other services, with the refresh token that gets the next one: in a ``SessionResponse`` when the
/// server issues access tokens (`--access-token-audience`), and the answer of `POST /v1/token`.
public struct AccessTokenResponse: Codable, Hashable, Sendable {
    /// A JWT (ES256, `kid` in the header) any service can verify with the keys at `/.well-known/jwks.json`.
    public var accessToken: String
    /// Always `Bearer`.
    public var tokenType: String
    /// When ``accessToken`` stops being valid (its `exp`).
    public var expiresAt: Date
    /// Opaque and single-use: `POST /v1/token` with it answers the next pair. Using one twice ends the session.
    public var refreshToken: String

    public init(accessToken: String, tokenType: String = "Bearer", expiresAt: Date, refreshToken: String) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
    }
}

/// The body of `POST /v1/token`.
public struct RefreshTokenRequest: Codable, Hashable, Sendable {
    public var refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}
