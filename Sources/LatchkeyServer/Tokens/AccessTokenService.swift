import Foundation
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// Access tokens other services verify on their own, and the refresh tokens that renew them. A sign-in's answer carries
/// an access token — a JWT signed ES256 (`kid` in the header; `iss`, `sub`, `aud`, `iat`, `exp`, `jti`, `sid`, `amr`,
/// `auth_time` and the operator's claims) — and a refresh token (``RefreshToken``: sealed, nothing stored), bound to the
/// session. `POST /v1/token` spends a refresh token for the next pair; spending one twice ends the session (a copy is in
/// someone else's hands), and ending a session makes its refresh tokens fail at once.
struct AccessTokenService: Sendable {
    let configuration: AccessTokenConfiguration
    let store: any LatchkeyStore
    let keys: SigningKeyRing

    init(configuration: AccessTokenConfiguration, store: any LatchkeyStore) {
        self.configuration = configuration
        self.store = store
        keys = SigningKeyRing(store: store, configuration: configuration)
    }

    /// A new access token and refresh token for a session just made (`methods`: how the user signed in). Writes
    /// nothing: the session's refresh generation starts at 0 with the session.
    func issue(for user: StoredUser, session: StoredSession, methods: [String], now: Date = Date()) async throws
        -> AccessTokenResponse
    {
        let refresh = RefreshToken(
            sessionTokenHash: session.tokenHash, generation: 0, authenticationMethods: methods,
            authenticatedAt: session.verifiedAt ?? session.createdAt)
        return try await answer(user: user, refresh: refresh, now: now)
    }

    /// Spends `presented` for the next pair: 401 `token.invalid` for an unknown, used-up or ended one, 401
    /// `token.reused` (and the session ends) for one spent before.
    func refresh(_ presented: String, now: Date = Date()) async throws -> AccessTokenResponse {
        guard var token = RefreshToken(sealed: presented, secrets: configuration.secrets), token.generation < .max
        else { throw Self.invalid }
        switch try await store.spendRefreshToken(
            session: token.sessionTokenHash, generation: Int(token.generation), now: now)
        {
        case .invalid:
            throw Self.invalid
        case .reused:
            throw ServiceError(
                .tokenReused, "this refresh token was used before, so a copy is elsewhere: the session is ended")
        case .rotated(let userID):
            guard let user = try await store.user(id: userID) else { throw Self.invalid }
            token.generation += 1
            return try await answer(user: user, refresh: token, now: now)
        }
    }

    /// `/.well-known/jwks.json`.
    func jwks(now: Date = Date()) async throws -> [UInt8] {
        Array(#"{"keys":["#.utf8) + Array(try await keys.publishedKeys(now: now).joined(separator: ",").utf8)
            + Array("]}".utf8)
    }

    /// `/.well-known/openid-configuration`: what of OpenID provider metadata applies, so JWT libraries find the keys.
    var openIDConfiguration: [String: AccessTokenConfiguration.JSONValue] {
        [
            "issuer": .string(configuration.issuer),
            "jwks_uri": .string(configuration.issuer + APIPaths.WellKnown.jwks),
            "id_token_signing_alg_values_supported": .array([.string("ES256")]),
            "subject_types_supported": .array([.string("public")]),
            "response_types_supported": .array([]),
        ]
    }

    private func answer(user: StoredUser, refresh: RefreshToken, now: Date) async throws -> AccessTokenResponse {
        let issuedAt = Int(now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt + Int(configuration.lifetime)
        let key = try await keys.signingKey(now: now)
        let token = try key.sign(claims(user: user, refresh: refresh, issuedAt: issuedAt, expiresAt: expiresAt))
        return AccessTokenResponse(
            accessToken: token, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiresAt)),
            refreshToken: try refresh.sealed(with: configuration.secrets))
    }

    /// The claims' JSON: the operator's (in name order), then the server's.
    private func claims(user: StoredUser, refresh: RefreshToken, issuedAt: Int, expiresAt: Int) throws -> [UInt8] {
        var json = JSONWriter()
        let userID = user.id.uuidString.lowercased()
        try json.object { json in
            for (name, template) in configuration.claims.sorted(by: { $0.key < $1.key }) {
                json.key(name)
                switch template {
                case .value(let value): try json.encoded(value)
                case .text(let text):
                    json.string(
                        text.replacingOccurrences(of: "{user.id}", with: userID)
                            .replacingOccurrences(of: "{user.name}", with: user.name)
                            .replacingOccurrences(of: "{user.displayName}", with: user.displayName))
                }
            }
            json.key("amr")
            json.array { json in
                for method in refresh.authenticationMethods { json.string(method) }
            }
            json.member("aud", configuration.audience)
            json.key("auth_time")
            json.int(Int(refresh.authenticatedAt.timeIntervalSince1970))
            json.key("exp")
            json.int(expiresAt)
            json.key("iat")
            json.int(issuedAt)
            json.member("iss", configuration.issuer)
            json.member("jti", Base64URL.encode(RelyingParty.generateChallenge(byteCount: 16)))
            json.member("sid", Base64URL.encode(Array(refresh.sessionTokenHash.prefix(12))))
            json.member("sub", userID)
        }
        return json.bytes
    }

    private static let invalid = ServiceError(
        .tokenInvalid, "the refresh token is not valid: unknown, already used, or its session has ended")
}
