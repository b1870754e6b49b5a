import AppleSignIn
import AppleStandIn
import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing

@testable import LatchkeyServer

/// `POST /v1/apple/signin` signs in once per identity token and only with a fresh token and a nonce the server issued
/// (`POST /v1/apple/nonce`). Each refusal is a 400 with a stable code that changes nothing in the store.
@Suite("Sign in with Apple: single-use, fresh identity tokens")
struct AppleReplayTests {
    /// The body of a returning sign-in (no code) with `token` and `nonce`.
    private static func body(_ token: String, _ nonce: String) -> [String: Any] {
        ["identityToken": token, "rawNonce": nonce]
    }

    @Test(arguments: Backend.available)
    func theNonceEndpointIssuesSingleUseNonces(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let before = Date()
            let reply = try await apple.server.app().send(.post, APIPaths.Apple.nonce)
            #expect(reply.status == .ok, "\(reply)")
            #expect(reply.headers[.cacheControl] == "no-store")
            let nonce: AppleNonceResponse = try reply.decode()
            #expect(
                nonce.nonce.count >= 43
                    && nonce.nonce.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(
                nonce.expiresAt > before.addingTimeInterval(590) && nonce.expiresAt < Date().addingTimeInterval(610))
            #expect(try await apple.issueNonce() != nonce.nonce)
        }
    }

    /// Review finding 8: nonces were bounded per address only, so many addresses could fill `apple_nonces`. An instance
    /// issues at most 6,000 a minute, whoever asks; then 503 `apple.busy` with `Retry-After`, and nothing is stored.
    @Test func nonceIssuanceHasAGlobalCap() async throws {
        try await withAppleServer(.sqlite) { apple in
            let configuration = try #require(apple.server.configuration.apple)
            let service = AppleSignInService(
                configuration: configuration, store: apple.server.store,
                sessions: SessionAuthenticator(
                    store: apple.server.store, lifetime: .seconds(60), cookies: SessionCookies(secure: false),
                    clients: ClientAddressResolver(trustedProxies: [])),
                audit: AuditLog(
                    store: apple.server.store, retention: nil, names: AuthenticatorNaming(metadata: nil),
                    logger: quietLogger),
                logger: quietLogger)
            _ = try await service.issueNonce()
            // The rest of this minute's budget, taken without storing anything.
            var taken = 1
            while service.nonceIssuance.acquire("") == nil { taken += 1 }
            #expect(taken >= AppleSignInService.maximumNoncesPerMinute)
            do {
                _ = try await service.issueNonce()
                Issue.record("a nonce past the cap")
            } catch {
                let answer = APIError(error)
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.code == "apple.busy")
                #expect(answer.headers[.retryAfter] != nil)
            }
        }
    }

    @Test(arguments: Backend.available)
    func aReplayedTokenIsRefusedAndChangesNothing(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            #expect(try await apple.signIn(apple.server.app(), subject: "001.replay").status == .created)
            let link = try #require(try await apple.server.store.appleLink(subject: "001.replay"))

            let nonce = try await apple.issueNonce()
            let token = try await apple.identityToken(subject: "001.replay", rawNonce: nonce)
            let first = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(token, nonce)))
            #expect(first.status == .ok, "\(first)")
            for _ in 0..<2 {
                let replayed = try await apple.server.app().send(
                    .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(token, nonce)))
                #expect(replayed.status == .badRequest && replayed.errorCode == "apple.tokenReplayed", "\(replayed)")
                #expect(replayed.headers[values: .setCookie].isEmpty, "no session was issued")
                #expect(!replayed.text.contains("token\":"), "no session token in the answer")
            }
            #expect(try await apple.server.store.appleLink(subject: "001.replay") == link)
        }
    }

    @Test(arguments: Backend.available)
    func concurrentUsesOfOneTokenSignInOnce(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            #expect(try await apple.signIn(apple.server.app(), subject: "001.race").status == .created)
            let nonce = try await apple.issueNonce()
            let token = try await apple.identityToken(subject: "001.race", rawNonce: nonce)
            let statuses = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await apple.server.app().send(
                            .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(token, nonce)))
                    }
                }
                return try await group.reduce(into: [Reply]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0.status == .ok }.count == 1, "\(statuses)")
            #expect(
                statuses.filter { $0.status == .badRequest }.allSatisfy {
                    ["apple.tokenReplayed", "apple.nonceInvalid"].contains($0.errorCode)
                })
        }
    }

    @Test(arguments: Backend.available)
    func aStaleTokenIsRefusedAndLeavesItsNonceUnused(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            #expect(try await apple.signIn(apple.server.app(), subject: "001.stale").status == .created)
            let nonce = try await apple.issueNonce()
            let now = Int(Date().timeIntervalSince1970)
            // Issued 20 hours ago and not expired: Apple's tokens live for a day.
            let stale = try await apple.identityToken(subject: "001.stale", rawNonce: nonce) { claims in
                (claims["iat"], claims["exp"]) = (.int(now - 20 * 3600), .int(now + 4 * 3600))
            }
            let refused = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(stale, nonce)))
            #expect(refused.status == .badRequest && refused.errorCode == "apple.tokenTooOld", "\(refused)")
            #expect(refused.headers[values: .setCookie].isEmpty)

            // Just past the configured age (300 s by default) is refused too.
            let late = try await apple.identityToken(subject: "001.stale", rawNonce: nonce) { claims in
                claims["iat"] = .int(now - 320)
            }
            let lateReply = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(late, nonce)))
            #expect(lateReply.errorCode == "apple.tokenTooOld", "\(lateReply)")

            // Nothing was consumed or recorded: the same nonce still signs in with a fresh token.
            let fresh = try await apple.identityToken(subject: "001.stale", rawNonce: nonce)
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(fresh, nonce)))
            #expect(reply.status == .ok, "\(reply)")
        }
    }

    @Test(arguments: Backend.available)
    func theTokenAgeIsConfigurable(_ backend: Backend) async throws {
        try await withAppleServer(backend, configure: { $0.appleTokenMaxAge = 30 }) { apple in
            #expect(try await apple.signIn(apple.server.app(), subject: "001.age").status == .created)
            let nonce = try await apple.issueNonce()
            let token = try await apple.identityToken(subject: "001.age", rawNonce: nonce) { claims in
                claims["iat"] = .int(Int(Date().timeIntervalSince1970) - 45)
            }
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(token, nonce)))
            #expect(reply.errorCode == "apple.tokenTooOld", "\(reply)")
        }
    }

    @Test(arguments: Backend.available)
    func unknownUsedAndExpiredNoncesAreRefusedAndChangeNothing(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            #expect(try await apple.signIn(apple.server.app(), subject: "001.nonce").status == .created)
            let link = try #require(try await apple.server.store.appleLink(subject: "001.nonce"))
            func send(_ nonce: String, subject: String = "001.nonce") async throws -> Reply {
                let token = try await apple.identityToken(subject: subject, rawNonce: nonce)
                return try await apple.server.app().send(
                    .post, APIPaths.Apple.signIn, body: JSONObject.buffer(Self.body(token, nonce)))
            }

            // Made up by the app, well formed or not.
            for made in ["app-made-nonce 1", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
                let unknown = try await send(made)
                #expect(unknown.status == .badRequest && unknown.errorCode == "apple.nonceInvalid", "\(unknown)")
                #expect(unknown.headers[values: .setCookie].isEmpty)
            }

            // Used by one sign-in, then presented in another Apple ID's token.
            let used = try await apple.issueNonce()
            #expect(try await send(used).status == .ok)
            #expect(try await apple.signIn(apple.server.app(), subject: "001.other").status == .created)
            let otherLink = try #require(try await apple.server.store.appleLink(subject: "001.other"))
            let reused = try await send(used, subject: "001.other")
            #expect(reused.status == .badRequest && reused.errorCode == "apple.nonceInvalid", "\(reused)")
            #expect(try await apple.server.store.appleLink(subject: "001.other") == otherLink)

            // Expired: refused, and left as it was (a second try says expired again, not unknown).
            let issued = Date().addingTimeInterval(-700)
            let expired = StoredAppleNonce(
                nonce: "expired-nonce-0123456789abcdefghijklmnopqrs", createdAt: issued,
                expiresAt: issued.addingTimeInterval(600))
            try await apple.server.store.insertAppleNonce(expired)
            for _ in 0..<2 {
                let late = try await send(expired.nonce)
                #expect(late.status == .badRequest && late.errorCode == "apple.nonceExpired", "\(late)")
                #expect(late.headers[values: .setCookie].isEmpty)
            }
            #expect(try await apple.server.store.appleLink(subject: "001.nonce") == link)
        }
    }

    @Test(arguments: Backend.available)
    func aFirstSignInWithAnUnissuedNonceCreatesNothing(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let code = await apple.standIn.issueCode(for: .app(AppleServer.bundleID), subject: "001.first")
            let token = try await apple.identityToken(subject: "001.first", rawNonce: "app-made-nonce")
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn,
                body: JSONObject.buffer([
                    "identityToken": token, "rawNonce": "app-made-nonce", "authorizationCode": code,
                ]))
            #expect(reply.status == .badRequest && reply.errorCode == "apple.nonceInvalid", "\(reply)")
            #expect(try await apple.server.store.appleLink(subject: "001.first") == nil)
            #expect(
                try await apple.server.store.user(named: "ada@privaterelay.appleid.com") == nil, "no user was created")
            #expect(await apple.standIn.isRedeemed(code: code) == false, "the code was never exchanged")
        }
    }
}
