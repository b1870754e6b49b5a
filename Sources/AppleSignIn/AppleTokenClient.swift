import AsyncHTTPClient
import NIOCore

/// Talks to Apple's token and revoke endpoints: authorization-code exchange, refresh-token validation, revocation.
///
/// Each call signs (or reuses) a client secret for the right client ID. App codes are exchanged with the bundle ID
/// and no `redirect_uri`; web codes with the Services ID and their `redirect_uri`. The two code types keep them apart.
public struct AppleTokenClient: Sendable {
    private let http: AppleHTTP
    private let endpoints: AppleEndpoints
    private let secrets: AppleClientSecretCache

    /// Makes a client of `endpoints` that signs client secrets with `secrets`.
    public init(
        endpoints: AppleEndpoints = .production, secrets: AppleClientSecretCache,
        httpClient: HTTPClient = .shared, timeout: TimeAmount = .seconds(15)
    ) {
        self.http = AppleHTTP(client: httpClient, timeout: timeout)
        self.endpoints = endpoints
        self.secrets = secrets
    }

    /// Exchanges an app's authorization code.
    public func exchange(_ code: AppAuthorizationCode) async throws(AppleSignInError) -> AppleTokenResponse {
        try await requestTokens(
            client: .app(code.bundleID), grant: [("grant_type", "authorization_code"), ("code", code.code)])
    }

    /// Exchanges a web authorization code.
    public func exchange(_ code: WebAuthorizationCode) async throws(AppleSignInError) -> AppleTokenResponse {
        try await requestTokens(
            client: .web(code.servicesID),
            grant: [
                ("grant_type", "authorization_code"), ("code", code.code), ("redirect_uri", code.redirectURI),
            ])
    }

    /// Validates a refresh token with Apple (`grant_type=refresh_token`); the answer carries a new identity token.
    /// Throws `apple.invalidGrant` when the user revoked access.
    public func validate(refreshToken: String, client: AppleClientID) async throws(AppleSignInError)
        -> AppleTokenResponse
    {
        try await requestTokens(
            client: client, grant: [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    /// Which kind of token ``revoke(_:kind:client:)`` revokes.
    public enum TokenKind: String, Sendable {
        /// A refresh token (revokes the user's authorization for the app).
        case refreshToken = "refresh_token"
        /// An access token.
        case accessToken = "access_token"
    }

    /// Revokes a token, ending the user's authorization of the client (App Store guideline 5.1.1(v)).
    public func revoke(_ token: String, kind: TokenKind = .refreshToken, client: AppleClientID)
        async throws(AppleSignInError)
    {
        let secret = try await secrets.secret(for: client.rawValue)
        let reply = try await http.postForm(
            endpoints.revoke,
            fields: [
                ("client_id", client.rawValue), ("client_secret", secret.value),
                ("token", token), ("token_type_hint", kind.rawValue),
            ])
        guard reply.status == 200 else { throw Self.failure(reply) }
    }

    private func requestTokens(client: AppleClientID, grant: [(String, String)]) async throws(AppleSignInError)
        -> AppleTokenResponse
    {
        let secret = try await secrets.secret(for: client.rawValue)
        let reply = try await http.postForm(
            endpoints.token,
            fields: [("client_id", client.rawValue), ("client_secret", secret.value)] + grant)
        guard reply.status == 200 else { throw Self.failure(reply) }
        return try decodeJSON(
            AppleTokenResponse.self, from: reply.body, code: .appleError, what: "Apple's token response")
    }

    private static func failure(_ reply: AppleHTTP.Reply) -> AppleSignInError {
        if let body = try? decodeJSON(
            AppleOAuthErrorBody.self, from: reply.body, code: .appleError, what: "Apple's error")
        {
            return body.signInError
        }
        return AppleSignInError(.appleError, "Apple answered HTTP \(reply.status) without an error body")
    }
}
