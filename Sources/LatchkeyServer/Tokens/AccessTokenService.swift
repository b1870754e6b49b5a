import Crypto
import Foundation
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// Access tokens other services verify on their own, and the refresh tokens that renew them. A sign-in's answer carries
/// an access token — a JWT signed ES256 (`kid` in the header; `iss`, `sub`, `aud`, `iat`, `exp`, `jti`, `sid`, `amr`,
/// `auth_time` and the operator's claims) — and a refresh token: 32 random bytes, kept as SHA-256, bound to the session
/// and a family. `POST /v1/token` spends a refresh token for the next pair; spending one twice ends the session (a copy
/// is in someone else's hands), and ending a session makes its refresh tokens fail at once.
struct AccessTokenService: Sendable {
    let configuration: AccessTokenConfiguration
    let store: any LatchkeyStore
    let keys: SigningKeyRing

    init(configuration: AccessTokenConfiguration, store: any LatchkeyStore) {
        self.configuration = configuration
        self.store = store
        keys = SigningKeyRing(store: store, configuration: configuration)
    }

    /// A new access token and refresh token for a session just made (`methods`: how the user signed in).
    func issue(for user: StoredUser, session: StoredSession, methods: [String], now: Date = Date()) async throws
        -> AccessTokenResponse
    {
        let refresh = SessionToken.generate()
        let record = StoredRefreshToken(
            tokenHash: refresh.hash, family: Data(RelyingParty.generateChallenge(byteCount: 16)),
            sessionTokenHash: session.tokenHash, userID: user.id, authenticationMethods: methods,
            authenticatedAt: session.verifiedAt ?? session.createdAt, createdAt: now)
        try await store.insertRefreshToken(record)
        return try await answer(user: user, record: record, refreshToken: refresh, now: now)
    }

    /// Spends `presented` for the next pair: 401 `token.invalid` for an unknown, used-up or ended one, 401
    /// `token.reused` (and the session ends) for one spent before.
    func refresh(_ presented: String, now: Date = Date()) async throws -> AccessTokenResponse {
        // A refresh token has a session token's form: 32 random bytes, base64url, kept as their SHA-256.
        guard let token = SessionToken(presented: presented) else { throw Self.invalid }
        let next = SessionToken.generate()
        switch try await store.rotateRefreshToken(presented: token.hash, replacementHash: next.hash, now: now)
        {
        case .invalid:
            throw Self.invalid
        case .reused:
            throw ServiceError(
                .tokenReused, "this refresh token was used before, so a copy is elsewhere: the session is ended")
        case .rotated(let record):
            guard let user = try await store.user(id: record.userID) else { throw Self.invalid }
            return try await answer(user: user, record: record, refreshToken: next, now: now)
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

    private func answer(user: StoredUser, record: StoredRefreshToken, refreshToken: SessionToken, now: Date)
        async throws
        -> AccessTokenResponse
    {
        let expiresAt = now.addingTimeInterval(configuration.lifetime)
        var claims: [String: AccessTokenConfiguration.JSONValue] = [:]
        for (name, template) in configuration.claims {
            switch template {
            case .value(let value): claims[name] = value
            case .text(let text):
                claims[name] = .string(
                    text.replacingOccurrences(of: "{user.id}", with: user.id.uuidString.lowercased())
                        .replacingOccurrences(of: "{user.name}", with: user.name)
                        .replacingOccurrences(of: "{user.displayName}", with: user.displayName))
            }
        }
        claims["iss"] = .string(configuration.issuer)
        claims["sub"] = .string(user.id.uuidString.lowercased())
        claims["aud"] = .string(configuration.audience)
        claims["iat"] = .number(now.timeIntervalSince1970.rounded(.down))
        claims["exp"] = .number(expiresAt.timeIntervalSince1970.rounded(.down))
        claims["jti"] = .string(Base64URL.encode(RelyingParty.generateChallenge(byteCount: 16)))
        claims["sid"] = .string(Base64URL.encode(Array(record.sessionTokenHash.prefix(12))))
        claims["amr"] = .array(record.authenticationMethods.map { .string($0) })
        claims["auth_time"] = .number(record.authenticatedAt.timeIntervalSince1970.rounded(.down))
        let (keyID, key) = try await keys.signingKey(now: now)
        let token = try JWT.sign(
            header: ["alg": .string("ES256"), "kid": .string(keyID), "typ": .string("at+jwt")], claims: claims,
            with: key)
        return AccessTokenResponse(
            accessToken: token, expiresAt: Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down)),
            refreshToken: refreshToken.text)
    }

    private static let invalid = ServiceError(
        .tokenInvalid, "the refresh token is not valid: unknown, already used, or its session has ended")
}

/// Compact JWS (RFC 7515) with ES256: base64url(header).base64url(claims).base64url(r‖s).
enum JWT {
    static func sign(
        header: [String: AccessTokenConfiguration.JSONValue], claims: [String: AccessTokenConfiguration.JSONValue],
        with key: P256.Signing.PrivateKey
    ) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let input =
            Base64URL.encode(Array(try encoder.encode(header))) + "."
            + Base64URL.encode(Array(try encoder.encode(claims)))
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }
}
