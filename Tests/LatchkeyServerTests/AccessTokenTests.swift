import AppleSignIn
import Crypto
import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

@testable import LatchkeyServer

/// Access tokens over HTTP: what a sign-in answers, refresh-token rotation and reuse, revocation with the session, the
/// served keys, and a JWT library no one here wrote (PyJWT) verifying the tokens against them.
@Suite("Access tokens")
struct AccessTokenTests {
    let scratch = ScratchDirectory(prefix: "latchkey-tokens")

    static let audience = "https://api.example.com"

    func settings() throws -> ServerSettings {
        var settings = ServerSettings.test
        settings.accessTokenAudience = Self.audience
        settings.secretsKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let claims = scratch.path("claims.json")
        try #"{"tenant":"acme","greeting":"hello {user.name}","roles":["member"],"level":2}"#.write(
            toFile: claims, atomically: true, encoding: .utf8)
        settings.accessTokenClaims = claims
        return settings
    }

    /// The header and claims of a JWT, unverified.
    static func decode(_ token: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        func object(_ part: String) throws -> [String: Any] {
            let bytes = try #require(Base64URL.decode(part))
            return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        }
        return (try object(parts[0]), try object(parts[1]))
    }

    /// Verifies `token`'s ES256 signature with the key of its `kid` in the server's JWKS.
    static func verify(_ token: String, jwks: Reply) throws -> Bool {
        let parts = token.split(separator: ".").map(String.init)
        let kid = try #require(try decode(token).header["kid"] as? String)
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(jwks.text.utf8)) as? [String: Any])
        let jwk = try #require((keys["keys"] as? [[String: Any]])?.first { $0["kid"] as? String == kid })
        let (xText, yText) = (try #require(jwk["x"] as? String), try #require(jwk["y"] as? String))
        let x = try #require(Base64URL.decode(xText))
        let y = try #require(Base64URL.decode(yText))
        let key = try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        return key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
    }

    @Test(
        "a passkey sign-up answers an ES256 access token with every claim, verifiable with the served keys",
        arguments: Backend.available)
    func signUpAnswersAnAccessToken(_ backend: Backend) async throws {
        try await withServer(backend, settings: try settings()) { server in
            let reply = try await NativeClient(http: server.app()).signUp("alice", with: VirtualAuthenticator())
            let response: SessionResponse = try reply.decode()
            let access = try #require(response.accessToken)
            #expect(access.tokenType == "Bearer")
            let (header, claims) = try Self.decode(access.accessToken)
            #expect(header["alg"] as? String == "ES256" && header["typ"] as? String == "at+jwt")
            #expect(claims["iss"] as? String == ServerHarness.origin && claims["aud"] as? String == Self.audience)
            #expect(claims["sub"] as? String == response.user.id)
            let (iat, exp) = (try #require(claims["iat"] as? Int), try #require(claims["exp"] as? Int))
            #expect(exp - iat == 300 && Double(exp) == access.expiresAt.timeIntervalSince1970)
            #expect((claims["amr"] as? [String]).map { $0 == ["swk"] || $0 == ["hwk"] } == true)
            // The session was made a moment before the token, in the same request.
            #expect((iat - 2...iat).contains(try #require(claims["auth_time"] as? Int)))
            let user = try #require(try await server.store.user(named: "alice"))
            let sessions = try await server.store.sessions(ofUser: user.id, now: Date())
            #expect(claims["sid"] as? String == sessions.first?.publicID)
            #expect(claims["tenant"] as? String == "acme" && claims["greeting"] as? String == "hello alice")
            #expect(claims["roles"] as? [String] == ["member"] && claims["level"] as? Int == 2)

            let jwks = try await server.app().send(.get, APIPaths.WellKnown.jwks)
            #expect(jwks.status == .ok && jwks.headers[.contentType] == "application/jwk-set+json")
            #expect(try Self.verify(access.accessToken, jwks: jwks))
            #expect(!jwks.text.contains("\"d\""), "no private part is published")
            let discovery = try await server.app().send(.get, APIPaths.WellKnown.openIDConfiguration)
            #expect(discovery.text.contains(#""jwks_uri":"http://localhost:8080/.well-known/jwks.json""#))
        }
    }

    @Test("refresh rotates; a spent refresh token used again ends the session; sign-out ends the family")
    func refreshRotationAndReuse() async throws {
        try await withServer(.sqlite, settings: try settings()) { server in
            let app = server.app()
            let signedUp: SessionResponse = try await NativeClient(http: app).signUp(
                "bob", with: VirtualAuthenticator()
            )
            .decode()
            let first = try #require(signedUp.accessToken)
            let refreshed = try await app.send(
                .post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: first.refreshToken))
            #expect(refreshed.status == .ok && refreshed.headers[.cacheControl] == "no-store", "\(refreshed)")
            let second: AccessTokenResponse = try refreshed.decode()
            #expect(second.refreshToken != first.refreshToken && second.accessToken != first.accessToken)
            let (_, claims) = try Self.decode(second.accessToken)
            #expect(claims["sid"] as? String == (try Self.decode(first.accessToken).claims["sid"] as? String))

            // The first refresh token again: a copy is elsewhere. The session ends with every token of its family.
            let reused = try await app.send(
                .post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: first.refreshToken))
            #expect(reused.status == .unauthorized && reused.errorCode == "token.reused", "\(reused)")
            await app.setBearer(signedUp.session.token)
            #expect(try await app.send(.get, APIPaths.Native.me).status == .unauthorized)
            let afterwards = try await app.send(
                .post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: second.refreshToken))
            #expect(afterwards.errorCode == "token.invalid")
            #expect(
                try await app.send(.post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: "nonsense"))
                    .errorCode == "token.invalid")

        }
    }

    @Test(
        "two instances on one PostgreSQL: one set of keys, and a refresh family rotated on one and replayed on the other",
        .enabled(if: Backend.postgresURL != nil))
    func twoInstances() async throws {
        let shared = try settings()
        try await TestDatabase.with(.postgres) { database in
            try await withServer(on: database, settings: shared) { serverA in
                try await withServer(on: database, settings: shared) { serverB in
                    let signedUp: SessionResponse = try await NativeClient(http: serverA.app()).signUp(
                        "carol", with: VirtualAuthenticator()
                    )
                    .decode()
                    let first = try #require(signedUp.accessToken)
                    // B publishes the key A signed with.
                    let jwksA = try await serverA.app().send(.get, APIPaths.WellKnown.jwks)
                    let jwksB = try await serverB.app().send(.get, APIPaths.WellKnown.jwks)
                    #expect(jwksA.text == jwksB.text)
                    #expect(try Self.verify(first.accessToken, jwks: jwksB))
                    // Rotated on B; the spent token replayed on A ends the family there too.
                    let rotated = try await serverB.app().send(
                        .post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: first.refreshToken))
                    #expect(rotated.status == .ok, "\(rotated)")
                    let second: AccessTokenResponse = try rotated.decode()
                    let replayed = try await serverA.app().send(
                        .post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: first.refreshToken))
                    #expect(replayed.errorCode == "token.reused", "\(replayed)")
                    let after = try await serverB.app().send(
                        .post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: second.refreshToken))
                    #expect(after.errorCode == "token.invalid", "\(after)")
                }
            }
        }
    }

    @Test("a password sign-in's token says pwd; signing out makes its refresh token fail at once")
    func passwordAndSignOut() async throws {
        try await withServer(.sqlite, settings: try settings()) { server in
            let app = server.app()
            let registered = try await app.send(
                .post, APIPaths.Native.passwordRegister,
                json: PasswordRegisterRequest(username: "carol", password: "correct horse battery staple"))
            let response: SessionResponse = try registered.decode()
            let access = try #require(response.accessToken)
            #expect(try Self.decode(access.accessToken).claims["amr"] as? [String] == ["pwd"])
            await app.setBearer(response.session.token)
            #expect(try await app.send(.post, APIPaths.Native.logout).status == .noContent)
            let refreshed = try await server.app().send(
                .post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: access.refreshToken))
            #expect(refreshed.status == .unauthorized && refreshed.errorCode == "token.invalid")
        }
    }

    @Test(
        "PyJWT verifies the token against the served JWKS, and refuses another audience",
        .enabled(if: SMTPTestServer.python != nil))
    func pyJWTVerifies() async throws {
        try await withServer(.sqlite, settings: try settings()) { server in
            let reply = try await NativeClient(http: server.app()).signUp("dora", with: VirtualAuthenticator())
            #expect(reply.status == .created, "\(reply)")
            let response: SessionResponse = try reply.decode()
            let token = try #require(response.accessToken).accessToken
            let jwks = "http://127.0.0.1:\(try #require(server.client.port))\(APIPaths.WellKnown.jwks)"
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Interop/pyjwt_verify.py").path
            let python = try #require(SMTPTestServer.python)
            let verified = try await ChildProcess.run(
                python, arguments: [script, jwks, Self.audience, ServerHarness.origin], input: Data(token.utf8))
            #expect(verified.status == 0, "\(String(decoding: verified.errors, as: UTF8.self))")
            let output = try #require(try JSONSerialization.jsonObject(with: verified.output) as? [String: Any])
            #expect((output["claims"] as? [String: Any])?["sub"] as? String == response.user.id)
            let refused = try await ChildProcess.run(
                python, arguments: [script, jwks, "https://other.example", ServerHarness.origin],
                input: Data(token.utf8))
            #expect(refused.status == 1 && String(decoding: refused.errors, as: UTF8.self).contains("InvalidAudience"))
        }
    }

    @Test("a sign-in with access tokens makes the store calls of one without: nothing is written for its refresh token")
    func signInWritesNothingMore() async throws {
        /// The store calls a second passkey sign-in makes (the first makes the signing key).
        func calls(_ settings: ServerSettings) async throws -> [FaultInjectingStore.Call: Int] {
            try await withServer(.sqlite, settings: settings, wrapStore: { FaultInjectingStore($0) }) { server in
                let store = try #require(server.store as? FaultInjectingStore)
                let phone = VirtualAuthenticator()
                #expect(try await NativeClient(http: server.app()).signUp("fay", with: phone).status == .created)
                #expect(try await NativeClient(http: server.app()).signIn("fay", with: phone).status == .ok)
                let before = Dictionary(
                    uniqueKeysWithValues: FaultInjectingStore.Call.allCases.map { ($0, store.count($0)) })
                let reply = try await NativeClient(http: server.app()).signIn("fay", with: phone)
                #expect(reply.status == .ok)
                #expect(
                    try reply.decode(SessionResponse.self).accessToken != nil || settings.accessTokenAudience == nil)
                return Dictionary(
                    uniqueKeysWithValues: FaultInjectingStore.Call.allCases.compactMap { call in
                        let made = store.count(call) - (before[call] ?? 0)
                        return made > 0 ? (call, made) : nil
                    })
            }
        }
        let without = try await calls(.test)
        #expect(without[.commitAuthentication] == 1, "\(without)")
        #expect(try await calls(try settings()) == without)
    }

    @Test("without --access-token-audience: no token in the answer, and the token routes answer 404 token.disabled")
    func disabled() async throws {
        try await withServer(.sqlite) { server in
            let response: SessionResponse = try await NativeClient(http: server.app()).signUp(
                "erin", with: VirtualAuthenticator()
            ).decode()
            #expect(response.accessToken == nil)
            for reply in [
                try await server.app().send(.get, APIPaths.WellKnown.jwks),
                try await server.app().send(.post, APIPaths.Native.token, json: RefreshTokenRequest(refreshToken: "x")),
            ] {
                #expect(reply.status == .notFound && reply.errorCode == "token.disabled")
            }
        }
    }

    @Test("settings: the secrets key is needed, reserved claims are refused, the other flags need an audience")
    func configuration() throws {
        var settings = ServerSettings()
        settings.accessTokenAudience = "api"
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
        settings = try self.settings()
        let claims = scratch.path("bad.json")
        try #"{"sub":"someone else"}"#.write(toFile: claims, atomically: true, encoding: .utf8)
        settings.accessTokenClaims = claims
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(settings) }
        settings.accessTokenClaims = nil
        #expect(
            try ServerConfiguration(settings).accessTokens?.description
                == "Access tokens: ES256 JWTs for https://api.example.com from http://localhost:8080, valid 300 s; keys at http://localhost:8080/.well-known/jwks.json, rotated every 30 days"
        )
        var lone = ServerSettings()
        lone.accessTokenLifetime = 60
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(lone) }
    }
}

/// Signing keys across time, without HTTP: the first signs at once, the next is published before it signs, the old one
/// stays published until its tokens expire, then goes.
@Suite("Signing key rotation")
struct SigningKeyRotationTests {
    @Test(arguments: Backend.available)
    func rotation(_ backend: Backend) async throws {
        var settings = ServerSettings.test
        settings.accessTokenAudience = "api"
        settings.signingKeyRotation = 1
        settings.secretsKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        try await withServer(backend, settings: settings) { server in
            let store = server.store
            let configuration = try #require(server.configuration.accessTokens)
            let ring = SigningKeyRing(store: store, configuration: configuration)
            let start = Date()
            let first = try await ring.signingKey(now: start).keyID
            #expect(try await ring.publishedKeys(now: start).count == 1)

            // An hour before the day is up the next key is made and published, but the first still signs.
            let beforeRotation = start.addingTimeInterval(86_400 - 3000)
            #expect(try await ring.signingKey(now: beforeRotation).keyID == first)
            let published = try await ring.publishedKeys(now: beforeRotation)
            #expect(published.count == 2)
            // Another instance reading the same store agrees, and makes no third key.
            let other = SigningKeyRing(store: store, configuration: configuration)
            #expect(try await other.publishedKeys(now: beforeRotation) == published)

            // The second key, made 3,000 s before the rotation, signs an hour after it was made: published first.
            let afterRotation = start.addingTimeInterval(86_400 - 3000 + 3600 + 10)
            let second = try await ring.signingKey(now: afterRotation).keyID
            #expect(second != first && published.contains { $0.contains(second) })
            #expect(try await ring.publishedKeys(now: afterRotation).count == 2, "the first key's tokens are live")
            // Once the first key's last tokens have expired it is no longer published, and is deleted with the next
            // generation.
            let nextDay = start.addingTimeInterval(2 * 86_400 - 3000)
            let keys = try await ring.publishedKeys(now: nextDay)
            #expect(keys.count == 2 && !keys.contains { $0.contains(first) })
            #expect(try await store.signingKeys().map(\.keyID).contains(first) == false, "the first key is deleted")
        }
    }
}

/// Refresh tokens sealed with the secrets key (``RefreshToken``): what is sealed comes back, and nothing else opens.
@Suite("Sealed refresh tokens")
struct SealedRefreshTokenTests {
    static let secrets = try! SecretBox(key: (0..<32).map { UInt8($0) })
    static let token = RefreshToken(
        sessionTokenHash: Data((0..<32).map { UInt8(255 - $0) }), generation: 70_000,
        authenticationMethods: ["hwk", "mfa"], authenticatedAt: Date(timeIntervalSince1970: 1_790_000_000.75))

    @Test("a sealed token opens to what was sealed (the sign-in time in whole seconds), and differs each time")
    func roundTrip() throws {
        let text = try Self.token.sealed(with: Self.secrets)
        let opened = try #require(RefreshToken(sealed: text, secrets: Self.secrets))
        #expect(opened == Self.token && opened.authenticatedAt.timeIntervalSince1970 == 1_790_000_000)
        #expect(try Self.token.sealed(with: Self.secrets) != text, "a fresh nonce each time")
        var none = Self.token
        none.authenticationMethods = []
        #expect(RefreshToken(sealed: try none.sealed(with: Self.secrets), secrets: Self.secrets) == none)
    }

    @Test("a changed byte, another key, another purpose's sealed value, or no base64 does not open")
    func refused() throws {
        let text = try Self.token.sealed(with: Self.secrets)
        var bytes = try #require(Base64URL.decode(text))
        bytes[bytes.count / 2] ^= 1
        #expect(RefreshToken(sealed: Base64URL.encode(bytes), secrets: Self.secrets) == nil)
        let other = try SecretBox(key: [UInt8](repeating: 7, count: 32))
        #expect(RefreshToken(sealed: text, secrets: other) == nil)
        let elsewhere = try Self.secrets.seal(Array(repeating: 1, count: 60), context: Array("latchkey".utf8))
        #expect(RefreshToken(sealed: Base64URL.encode(elsewhere), secrets: Self.secrets) == nil)
        let short = try Self.secrets.seal(Array(repeating: 1, count: 43), context: Array("latchkey refresh token".utf8))
        #expect(RefreshToken(sealed: Base64URL.encode(short), secrets: Self.secrets) == nil)
        #expect(RefreshToken(sealed: "not base64!", secrets: Self.secrets) == nil)
        #expect(RefreshToken(sealed: String(repeating: "A", count: 4096), secrets: Self.secrets) == nil)
    }
}
