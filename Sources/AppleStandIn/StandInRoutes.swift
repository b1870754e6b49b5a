import AppleSignIn
import Foundation
import Hummingbird
import NIOCore

extension AppleStandIn {
    /// The stand-in's HTTP routes: `/auth/keys`, `/auth/token`, `/auth/revoke`.
    static func makeRouter(keyRing: StandInKeyRing, ledger: StandInLedger, configuration: Configuration) -> Router<
        BasicRequestContext
    > {
        let secrets = ClientSecretCheck(
            teamID: configuration.teamID, keyID: configuration.keyID, teamKey: configuration.teamKey)
        let router = Router()
        router.get("/auth/keys") { _, _ -> Response in
            await ledger.countKeysRequest()
            return json(.ok, await keyRing.jwks)
        }
        router.post("/auth/token") { request, _ -> Response in
            if let scripted = await ledger.takeScriptedTokenReply() {
                return json(.init(code: scripted.status), scripted.body)
            }
            let form = try await formFields(of: request)
            let now = configuration.now()
            guard let clientID = form["client_id"], let secret = form["client_secret"],
                secrets.check(secret, clientID: clientID, now: now)
            else {
                return failure(.init(error: "invalid_client", description: "The client could not be authenticated."))
            }
            let identity: Result<StandInClaims, OAuthFailure>
            var refreshToken: String?
            switch form["grant_type"] {
            case "authorization_code":
                guard let code = form["code"] else {
                    return failure(.init(error: "invalid_request", description: "code is missing."))
                }
                identity = await ledger.redeem(
                    code: code, clientID: clientID, redirectURI: form["redirect_uri"], now: now)
                if case .success(let claims) = identity {
                    refreshToken = await ledger.issueRefreshToken(clientID: clientID, identity: claims)
                }
            case "refresh_token":
                guard let token = form["refresh_token"] else {
                    return failure(.init(error: "invalid_request", description: "refresh_token is missing."))
                }
                identity = await ledger.refresh(token: token, clientID: clientID)
            default:
                return failure(.init(error: "unsupported_grant_type", description: "The grant type is not supported."))
            }
            switch identity {
            case .failure(let error):
                return failure(error)
            case .success(var claims):
                let time = Int(now.timeIntervalSince1970)
                claims["iat"] = .int(time)
                claims["exp"] = .int(time + 600)
                let tokens = TokenBody(
                    access_token: "a." + UUID().uuidString.lowercased(), token_type: "Bearer", expires_in: 3600,
                    refresh_token: refreshToken,
                    id_token: try await keyRing.sign(payload: AppleStandIn.json(claims), signing: .apple)
                )
                return json(.ok, AppleStandIn.json(tokens))
            }
        }
        router.post("/auth/revoke") { request, _ -> Response in
            let form = try await formFields(of: request)
            guard let clientID = form["client_id"], let secret = form["client_secret"],
                secrets.check(secret, clientID: clientID, now: configuration.now())
            else {
                return failure(.init(error: "invalid_client", description: "The client could not be authenticated."))
            }
            guard let token = form["token"] else {
                return failure(.init(error: "invalid_request", description: "token is missing."))
            }
            await ledger.revoke(token: token, clientID: clientID)
            return Response(status: .ok)
        }
        return router
    }

    private static func formFields(of request: Request) async throws -> [String: String] {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 16)
        return FormEncoding.decode(String(buffer: body))
    }

    private static func json(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func failure(_ error: OAuthFailure) -> Response {
        json(.badRequest, AppleStandIn.json(error))
    }
}

/// A successful token-endpoint body.
private struct TokenBody: Encodable {
    let access_token: String
    let token_type: String
    let expires_in: Int
    let refresh_token: String?
    let id_token: String
}
