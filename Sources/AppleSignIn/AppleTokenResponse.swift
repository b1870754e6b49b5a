/// Apple's answer to a code exchange or refresh-token validation. Its ``description`` never shows the tokens.
public struct AppleTokenResponse: Decodable, Sendable, CustomStringConvertible {
    /// An access token (unused by Sign in with Apple except for revocation).
    public let accessToken: String
    /// `Bearer`.
    public let tokenType: String
    /// Seconds until the access token expires.
    public let expiresIn: Int
    /// The refresh token (code exchange only): keep it, encrypted, to revoke on account deletion.
    public let refreshToken: String?
    /// A fresh identity token for the user; verify it with ``AppleIdentityTokenVerifier``.
    public let idToken: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
    }

    /// The token types and lifetime; never the tokens.
    public var description: String {
        "AppleTokenResponse(tokenType: \(tokenType), expiresIn: \(expiresIn), refreshToken: \(refreshToken == nil ? "none" : "<redacted>"), idToken: \(idToken == nil ? "none" : "<redacted>"))"
    }
}

/// Apple's error body, `{"error": "...", "error_description": "..."}`.
struct AppleOAuthErrorBody: Decodable {
    var error: String
    var error_description: String?

    /// The typed error for this body.
    var signInError: AppleSignInError {
        let detail = error_description.map { " (\($0.prefix(200)))" } ?? ""
        switch error {
        case "invalid_grant":
            return AppleSignInError(
                .invalidGrant, "the code or refresh token expired, was already used, or was revoked" + detail)
        case "invalid_client":
            return AppleSignInError(.invalidClient, "Apple rejected the client ID or client secret" + detail)
        case "invalid_request":
            return AppleSignInError(.invalidRequest, "Apple rejected the request as malformed" + detail)
        case "unauthorized_client":
            return AppleSignInError(.unauthorizedClient, "the client may not use this grant" + detail)
        case "unsupported_grant_type":
            return AppleSignInError(.unsupportedGrantType, "Apple does not support this grant type" + detail)
        case "invalid_scope":
            return AppleSignInError(.invalidScope, "Apple rejected the requested scope" + detail)
        default:
            return AppleSignInError(.appleError, "Apple answered \"\(error.prefix(60))\"" + detail)
        }
    }
}
