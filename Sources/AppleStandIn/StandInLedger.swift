import AppleSignIn
import Foundation

/// What the stand-in's token endpoint remembers: issued codes (single use), refresh tokens, revocations.
actor StandInLedger {
    /// An authorization code the stand-in issued.
    struct IssuedCode {
        let client: AppleClientID
        let redirectURI: String?
        let identity: StandInClaims
        let expiresAt: Date
        var used = false
    }

    /// A refresh token the stand-in issued.
    struct RefreshGrant {
        let clientID: String
        let identity: StandInClaims
        var revoked = false
    }

    private var codes: [String: IssuedCode] = [:]
    private var refreshTokens: [String: RefreshGrant] = [:]
    private(set) var revokedTokens: [String] = []
    private(set) var keysRequests = 0
    /// The answer the next `/auth/token` request gets instead of the real one.
    private var scriptedTokenReply: (status: Int, body: [UInt8])?

    func scriptTokenReply(status: Int, body: [UInt8]) { scriptedTokenReply = (status, body) }

    /// The scripted answer, once.
    func takeScriptedTokenReply() -> (status: Int, body: [UInt8])? {
        defer { scriptedTokenReply = nil }
        return scriptedTokenReply
    }

    func countKeysRequest() { keysRequests += 1 }

    func issue(code: IssuedCode) -> String {
        let value = "c." + UUID().uuidString.lowercased()
        codes[value] = code
        return value
    }

    /// Redeems a code once; a second redemption, an expired code or a code for another client fails.
    func redeem(code: String, clientID: String, redirectURI: String?, now: Date) -> Result<StandInClaims, OAuthFailure>
    {
        guard var issued = codes[code], !issued.used, issued.expiresAt > now else {
            return .failure(.init(error: "invalid_grant", description: "The code has expired or has been revoked."))
        }
        issued.used = true
        codes[code] = issued
        guard issued.client.rawValue == clientID else {
            return .failure(
                .init(
                    error: "invalid_grant", description: "client_id mismatch. The code was not issued to this client."))
        }
        switch issued.client {
        case .app where redirectURI != nil:
            return .failure(.init(error: "invalid_request", description: "redirect_uri is not used for app codes."))
        case .web where redirectURI != issued.redirectURI:
            return .failure(
                .init(error: "invalid_grant", description: "redirect_uri does not match the authorization request."))
        default:
            return .success(issued.identity)
        }
    }

    /// Whether `code` was presented to `/auth/token` (a code is used by its first presentation, even a failed one).
    func isRedeemed(_ code: String) -> Bool { codes[code]?.used ?? false }

    func issueRefreshToken(clientID: String, identity: StandInClaims) -> String {
        let value = "r." + UUID().uuidString.lowercased()
        refreshTokens[value] = RefreshGrant(clientID: clientID, identity: identity)
        return value
    }

    func refresh(token: String, clientID: String) -> Result<StandInClaims, OAuthFailure> {
        guard let grant = refreshTokens[token], !grant.revoked, grant.clientID == clientID else {
            return .failure(
                .init(error: "invalid_grant", description: "The refresh token is invalid or has been revoked."))
        }
        return .success(grant.identity)
    }

    /// Revokes a refresh or access token of `clientID`; unknown tokens are accepted silently, as Apple does.
    func revoke(token: String, clientID: String) {
        if let grant = refreshTokens[token], grant.clientID == clientID {
            refreshTokens[token]?.revoked = true
        }
        revokedTokens.append(token)
    }
}

/// An OAuth error body, as Apple sends it.
struct OAuthFailure: Error, Encodable {
    let error: String
    let description: String

    enum CodingKeys: String, CodingKey {
        case error
        case description = "error_description"
    }
}
