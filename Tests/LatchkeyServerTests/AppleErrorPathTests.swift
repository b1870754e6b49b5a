import AppleSignIn
import AppleStandIn
import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing

/// The Apple error paths the happy-path suites do not reach: a code for another Apple ID, an expired web state and
/// an incomplete callback. Each is a 400 with its code and leaves no user or link behind.
@Suite("Sign in with Apple: error paths")
struct AppleErrorPathTests {
    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test(arguments: Backend.available)
    func aCodeIssuedForAnotherAppleIDIsRefused(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let nonce = try await apple.issueNonce()
            let token = try await apple.identityToken(subject: "001.subject-a", rawNonce: nonce)
            let code = await apple.standIn.issueCode(for: .app(AppleServer.bundleID), subject: "001.subject-b")
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.signIn,
                body: JSONObject.buffer([
                    "identityToken": token, "rawNonce": nonce, "authorizationCode": code,
                ]))
            #expect(reply.status == .badRequest && reply.errorCode == "apple.codeMismatch", "\(reply)")
            #expect(reply.headers[values: .setCookie].isEmpty)
            #expect(try await apple.server.store.appleLink(subject: "001.subject-a") == nil)
            #expect(try await apple.server.store.appleLink(subject: "001.subject-b") == nil)
            #expect(
                try await apple.server.store.user(named: "ada@privaterelay.appleid.com") == nil, "no user was created")
        }
    }

    @Test(arguments: Backend.available)
    func anExpiredWebStateIsRefused(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let issued = Date().addingTimeInterval(-700)
            let state = StoredAppleWebState(
                state: "expired-state-0123456789", rawNonce: "raw-nonce", createdAt: issued,
                expiresAt: issued.addingTimeInterval(600))
            try await apple.server.store.insertAppleWebState(state)
            let claims = apple.standIn.identityClaims(
                subject: "001.late", audience: AppleServer.servicesID.rawValue, rawNonce: "raw-nonce")
            let idToken = try await apple.standIn.mint(claims)
            let code = await apple.standIn.issueCode(
                for: .web(AppleServer.servicesID), subject: "001.late", redirectURI: AppleServer.redirectURI)
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.callback,
                text: FormEncoding.encode([("code", code), ("id_token", idToken), ("state", state.state)]),
                headers: Self.form
            )
            #expect(reply.status == .badRequest && reply.errorCode == "apple.stateExpired", "\(reply)")
            #expect(reply.headers[values: .setCookie].isEmpty)
            #expect(try await apple.server.store.appleLink(subject: "001.late") == nil)
            #expect(await apple.standIn.isRedeemed(code: code) == false, "the code was never exchanged")
        }
    }

    @Test(arguments: Backend.available)
    func aCallbackWithoutTheIdentityTokenIsIncomplete(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let location = try #require(
                try await apple.server.browser().send(.get, APIPaths.Apple.authorize).headers[.location])
            let query = try #require(URLComponents(string: location)?.queryItems)
            let state = try #require(query.first { $0.name == "state" }?.value)
            let code = await apple.standIn.issueCode(
                for: .web(AppleServer.servicesID), subject: "001.partial", redirectURI: AppleServer.redirectURI)
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.callback, text: FormEncoding.encode([("code", code), ("state", state)]),
                headers: Self.form
            )
            #expect(reply.status == .badRequest && reply.errorCode == "apple.callbackIncomplete", "\(reply)")
            #expect(reply.headers[values: .setCookie].isEmpty)
            #expect(try await apple.server.store.appleLink(subject: "001.partial") == nil)
            #expect(await apple.standIn.isRedeemed(code: code) == false, "the code was never exchanged")
        }
    }
}
