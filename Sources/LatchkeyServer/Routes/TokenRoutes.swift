import Hummingbird
import LatchkeyAPI

/// Access tokens (``AccessTokenService``; 404 `token.disabled` without `--access-token-audience`): `POST /v1/token`
/// (a refresh token for the next pair), `GET /.well-known/jwks.json` (the signing keys) and
/// `GET /.well-known/openid-configuration` (the issuer and where its keys are).
struct TokenRoutes: Sendable {
    let tokens: AccessTokenService?

    func add(to routes: RouterGroup<ServerRequestContext>, ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        ceremonyRoutes.post(RouterPath(APIPaths.Native.token)) { request, context in
            let body = try await request.decodeJSON(RefreshTokenRequest.self, context: context)
            return try Response.json(
                try await enabled().refresh(body.refreshToken), headers: [.cacheControl: "no-store"])
        }
        routes.get(RouterPath(APIPaths.WellKnown.jwks)) { _, _ in
            let bytes = try await enabled().jwks()
            return Response(
                status: .ok,
                headers: [.contentType: "application/jwk-set+json", .cacheControl: "public, max-age=300"],
                body: .init(byteBuffer: .init(bytes: bytes)))
        }
        routes.get(RouterPath(APIPaths.WellKnown.openIDConfiguration)) { _, _ in
            try Response.json(try enabled().openIDConfiguration, headers: [.cacheControl: "public, max-age=3600"])
        }
    }

    private func enabled() throws -> AccessTokenService {
        guard let tokens else {
            throw ServiceError(
                .tokenDisabled, "this server issues no access tokens (no --access-token-audience is set)")
        }
        return tokens
    }
}
