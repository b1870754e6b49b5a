import AppleSignIn
import AppleStandIn
import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

/// `POST /v1/apple/signin` and `DELETE /v1/account` against a live server and a stand-in for Apple, on each database.
@Suite("Sign in with Apple: app sign-in and account deletion")
struct AppleSignInEndpointTests {
    @Test(arguments: Backend.available)
    func firstSignInCreatesTheUserAndReturningSignInKeepsTheFirstName(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let first = try await apple.signIn(
                apple.server.app(), subject: "001.ada", givenName: "Ada", familyName: "Lovelace")
            #expect(first.status == .created, "\(first)")
            let created: SessionResponse = try first.decode()
            #expect(created.user.name == "ada@privaterelay.appleid.com")
            #expect(created.user.displayName == "Ada Lovelace")

            let again = try await apple.signIn(apple.server.app(), subject: "001.ada")
            #expect(again.status == .ok, "\(again)")
            let returning: SessionResponse = try again.decode()
            #expect(returning.user.id == created.user.id)
            #expect(returning.user.displayName == "Ada Lovelace", "the name from the first sign-in is kept")
            #expect(returning.session.token != created.session.token)

            let me = try await bearer(apple, returning.session.token).send(.get, APIPaths.Native.me)
            #expect(me.status == .ok)
            #expect(
                try await apple.server.store.credentialCount(ofUser: try #require(UUID(uuidString: created.user.id)))
                    == 0)
        }
    }

    @Test(arguments: Backend.available)
    func aFullNameSentAsOneStringIsTheDisplayName(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let nonce = try await apple.issueNonce()
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn,
                body: JSONObject.buffer([
                    "identityToken": try await apple.identityToken(
                        subject: "001.formatted", rawNonce: nonce, email: nil), "rawNonce": nonce,
                    "authorizationCode": await apple.standIn.issueCode(
                        for: .app(AppleServer.bundleID), subject: "001.formatted"),
                    "fullName": "Grace Hopper", "clientId": AppleServer.bundleID.rawValue,
                ]))
            #expect(reply.status == .created, "\(reply)")
            let created: SessionResponse = try reply.decode()
            #expect(created.user.displayName == "Grace Hopper")
            #expect(created.user.name.hasPrefix("apple-"), "without an email in the token the name is generated")
        }
    }

    @Test(arguments: Backend.available)
    func theRefreshTokenIsStoredSealed(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            try await apple.signIn(apple.server.app(), subject: "001.sealed")
            let link = try #require(try await apple.server.store.appleLink(subject: "001.sealed"))
            let column = try #require(link.sealedRefreshToken)
            let refreshToken = try apple.openRefreshToken(link)
            #expect(refreshToken.hasPrefix("r."), "the stand-in's refresh token, recovered with the secrets key")
            #expect(column.range(of: Data(refreshToken.utf8)) == nil, "the stored column does not hold the plaintext")
            #expect(link.clientID == AppleServer.bundleID.rawValue)
            #expect(link.email == "ada@privaterelay.appleid.com" && link.isPrivateEmail && link.emailEnabled)
        }
    }

    /// Each identity token the server must refuse, with the code it answers.
    enum BadToken: String, CaseIterable, Sendable {
        case expired, futureIssuedAt, wrongIssuer, wrongAudience, wrongNonce, missingNonce, algNone, hs256WithPublicKey,
            unknownKid, tamperedPayload

        var code: String {
            switch self {
            case .expired: "apple.tokenExpired"
            case .futureIssuedAt: "apple.issuedInFuture"
            case .wrongIssuer: "apple.issuerMismatch"
            case .wrongAudience: "apple.audienceMismatch"
            case .wrongNonce: "apple.nonceMismatch"
            case .missingNonce: "apple.nonceMissing"
            case .algNone, .hs256WithPublicKey: "apple.algorithmNotAllowed"
            case .unknownKid: "apple.unknownKey"
            case .tamperedPayload: "apple.badSignature"
            }
        }

        func token(_ apple: AppleServer, subject: String, rawNonce: String) async throws -> String {
            let now = Int(Date().timeIntervalSince1970)
            let signing: StandInSigning =
                switch self {
                case .algNone: .unsigned
                case .hs256WithPublicKey: .hmacWithPublicKey
                case .unknownKid: .unknownKey
                case .tamperedPayload: .tamperedPayload
                default: .apple
                }
            return try await apple.identityToken(
                subject: subject, rawNonce: self == .wrongNonce ? "another-nonce" : rawNonce, signing: signing
            ) { claims in
                switch self {
                case .expired: (claims["iat"], claims["exp"]) = (.int(now - 1200), .int(now - 600))
                case .futureIssuedAt: (claims["iat"], claims["exp"]) = (.int(now + 600), .int(now + 1200))
                case .wrongIssuer: claims["iss"] = .string("https://evil.example")
                case .wrongAudience: claims["aud"] = .string("com.evil.app")
                case .missingNonce: claims["nonce"] = nil
                default: break
                }
            }
        }
    }

    @Test(arguments: Backend.available, BadToken.allCases)
    func aTokenThatFailsVerificationIsRefusedAndCreatesNothing(_ backend: Backend, _ bad: BadToken) async throws {
        try await withAppleServer(backend) { apple in
            let subject = "001.\(bad.rawValue)"
            let token = try await bad.token(apple, subject: subject, rawNonce: "raw-nonce")
            let code = await apple.standIn.issueCode(for: .app(AppleServer.bundleID), subject: subject)
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn,
                body: JSONObject.buffer([
                    "identityToken": token, "rawNonce": "raw-nonce", "authorizationCode": code,
                ]))
            #expect(reply.status == .badRequest, "\(reply)")
            #expect(reply.errorCode == bad.code, "\(reply)")
            #expect(reply.headers[values: .setCookie].isEmpty)
            #expect(try await apple.server.store.appleLink(subject: subject) == nil)
            #expect(
                try await apple.server.store.user(named: "ada@privaterelay.appleid.com") == nil, "no user was created")
            #expect(
                await apple.standIn.isRedeemed(code: code) == false,
                "a token that fails verification never reaches Apple's token endpoint")
        }
    }

    @Test(arguments: Backend.available)
    func theNonceAndTheFirstCodeAreRequired(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let token = try await apple.identityToken(subject: "001.rules", rawNonce: "n1")
            let noNonce = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn, body: JSONObject.buffer(["identityToken": token]))
            #expect(noNonce.status == .badRequest && noNonce.errorCode == "apple.nonceRequired", "\(noNonce)")
            let noCode = try await apple.signIn(apple.server.app(), subject: "001.rules", withCode: false)
            #expect(noCode.status == .badRequest && noCode.errorCode == "apple.codeRequired", "\(noCode)")
            let otherClient = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn,
                body: JSONObject.buffer([
                    "identityToken": token, "rawNonce": "n1", "clientId": "dev.latchkey.other",
                ]))
            #expect(otherClient.errorCode == "apple.clientMismatch", "\(otherClient)")
            let malformed = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn, body: JSONObject.buffer(["identityToken": "x.y", "rawNonce": "n1"]))
            #expect(malformed.status == .badRequest && malformed.errorCode == "apple.malformedToken", "\(malformed)")
            #expect(try await apple.server.store.appleLink(subject: "001.rules") == nil)
        }
    }

    @Test(arguments: Backend.available)
    func aCodeUsedOnceIsRefusedAndChangesNothing(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let code = await apple.standIn.issueCode(for: .app(AppleServer.bundleID), subject: "001.code")
            func send() async throws -> Reply {
                let nonce = try await apple.issueNonce()
                return try await apple.server.app().send(
                    .post, APIPaths.Apple.signIn,
                    body: JSONObject.buffer([
                        "identityToken": try await apple.identityToken(subject: "001.code", rawNonce: nonce),
                        "rawNonce": nonce,
                        "authorizationCode": code,
                    ]))
            }
            #expect(try await send().status == .created)
            let before = try #require(try await apple.server.store.appleLink(subject: "001.code"))
            let reused = try await send()
            #expect(reused.status == .badRequest && reused.errorCode == "apple.invalidGrant", "\(reused)")
            #expect(reused.headers[values: .setCookie].isEmpty, "no session was issued")
            #expect(try await apple.server.store.appleLink(subject: "001.code") == before)
        }
    }

    @Test(arguments: Backend.available)
    func deletingTheAccountRevokesTheAppleAuthorizationFirst(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let session: SessionResponse = try await apple.signIn(apple.server.app(), subject: "001.delete").decode()
            let link = try #require(try await apple.server.store.appleLink(subject: "001.delete"))
            let refreshToken = try apple.openRefreshToken(link)

            let deleted = try await bearer(apple, session.session.token).send(.delete, APIPaths.Native.account)
            #expect(deleted.status == .noContent, "\(deleted)")
            #expect(await apple.standIn.revokedTokens == [refreshToken])
            #expect(try await apple.server.store.user(id: link.userID) == nil)
            #expect(try await apple.server.store.appleLink(subject: "001.delete") == nil)
        }
    }

    @Test(arguments: Backend.available)
    func whenAppleIsUnreachableTheAccountIsKept(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let session: SessionResponse = try await apple.signIn(apple.server.app(), subject: "001.offline").decode()
            await apple.apple.stop()
            let refused = try await bearer(apple, session.session.token).send(.delete, APIPaths.Native.account)
            #expect(refused.status == .badGateway && refused.errorCode == "apple.revokeFailed", "\(refused)")
            let link = try #require(try await apple.server.store.appleLink(subject: "001.offline"))
            #expect(
                try await apple.server.store.user(id: link.userID) != nil, "the account is kept so the user can retry")
            #expect(try await bearer(apple, session.session.token).send(.get, APIPaths.Native.me).status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func withoutAppleConfigurationTheRoutesAreDisabled(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            #expect(server.configuration.apple == nil)
            for (method, path) in [
                (HTTPRequest.Method.post, APIPaths.Apple.signIn), (.post, APIPaths.Apple.notifications),
                (.get, APIPaths.Apple.authorize), (.post, APIPaths.Apple.nonce),
            ] {
                let reply = try await server.app().send(
                    method, path, body: method == .post ? JSONObject.buffer(["identityToken": "x"]) : nil)
                #expect(reply.status == .notFound && reply.errorCode == "apple.disabled", "\(path): \(reply)")
                #expect(reply.errorMessage == "Sign in with Apple is not configured on this server")
            }
        }
    }

    @Test(
        "with Sign in with Apple for apps only, the web flow's routes answer 404 apple.disabled and the app's work",
        arguments: Backend.available)
    func withoutTheWebFlowItsRoutesAreDisabled(_ backend: Backend) async throws {
        try await withAppleServer(
            backend,
            configure: {
                $0.appleServicesID = nil
                $0.appleRedirectURI = nil
            }
        ) { apple in
            #expect(apple.server.configuration.apple?.web == nil)
            for (method, path) in [
                (HTTPRequest.Method.get, APIPaths.Apple.authorize), (.post, APIPaths.Apple.callback),
            ] {
                let reply = try await apple.server.app().send(method, path)
                #expect(reply.status == .notFound && reply.errorCode == "apple.disabled", "\(path): \(reply)")
                #expect(reply.errorMessage == "The Sign in with Apple web flow is not configured on this server")
            }
            #expect(try await apple.server.app().send(.post, APIPaths.Apple.nonce).status == .ok)
        }
    }
}

/// An app client carrying `token` as its Bearer token.
func bearer(_ apple: AppleServer, _ token: String) async -> HTTPSession {
    let http = apple.server.app()
    await http.setBearer(token)
    return http
}
