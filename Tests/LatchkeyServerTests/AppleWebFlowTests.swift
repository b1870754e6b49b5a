import AppleSignIn
import AppleStandIn
import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

/// The web flow (`GET /v1/apple/authorize`, `POST /v1/apple/callback`) and linking Apple IDs and passkeys.
@Suite("Sign in with Apple: web flow and linked accounts")
struct AppleWebFlowTests {
    /// Starts the web flow in `browser`; returns Apple's authorize URL's query.
    private func authorize(_ apple: AppleServer, _ browser: HTTPSession) async throws -> [String: String] {
        let reply = try await browser.send(.get, APIPaths.Apple.authorize)
        #expect(reply.status == .found, "\(reply)")
        let location = try #require(reply.headers[.location])
        #expect(
            location.hasPrefix(
                apple.standIn.baseURL + "/auth/authorize?response_type=code%20id_token&response_mode=form_post&"))
        #expect(location.contains("&scope=name%20email&"))
        #expect(reply.headers[.cacheControl] == "no-store")
        let items = try #require(URLComponents(string: location)?.queryItems)
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    }

    /// What Apple posts back after the user signs in on its page.
    private func callbackForm(_ apple: AppleServer, query: [String: String], subject: String, user: String? = nil)
        async throws -> String
    {
        var claims = apple.standIn.identityClaims(
            subject: subject, audience: AppleServer.servicesID.rawValue, email: "grace@example.com")
        claims["nonce"] = .string(query["nonce"] ?? "")
        let idToken = try await apple.standIn.mint(claims)
        let code = await apple.standIn.issueCode(
            for: .web(AppleServer.servicesID), subject: subject, redirectURI: AppleServer.redirectURI)
        var fields = [("code", code), ("id_token", idToken), ("state", query["state"] ?? "")]
        if let user { fields.append(("user", user)) }
        return FormEncoding.encode(fields)
    }

    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test(arguments: Backend.available)
    func authorizeRedirectsToAppleAndTheCallbackSignsTheBrowserIn(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let browser = apple.server.browser()
            let query = try await authorize(apple, browser)
            #expect(query["response_type"] == "code id_token")
            #expect(query["response_mode"] == "form_post")
            #expect(query["client_id"] == AppleServer.servicesID.rawValue)
            #expect(query["redirect_uri"] == AppleServer.redirectURI)
            #expect(query["scope"] == "name email")
            let nonce = try #require(query["nonce"])
            #expect(
                nonce.count == 64 && nonce.allSatisfy(\.isHexDigit), "the nonce is a SHA-256 hex, never the raw nonce")

            let body = try await callbackForm(
                apple, query: query, subject: "001.web",
                user: #"{"name":{"firstName":"Grace","lastName":"Hopper"},"email":"grace@example.com"}"#)
            // Apple's page posts cross-site: no Origin of ours and no cookie.
            let callback = try await apple.server.app().send(
                .post, APIPaths.Apple.callback, text: body, headers: Self.form)
            #expect(callback.status == .seeOther, "\(callback)")
            #expect(callback.headers[.location] == "/")
            let cookie = try #require(callback.headers[values: .setCookie].first { $0.hasPrefix("latchkey_session=") })
            #expect(cookie.contains("HttpOnly"))

            let link = try #require(try await apple.server.store.appleLink(subject: "001.web"))
            #expect(link.clientID == AppleServer.servicesID.rawValue, "a web code is exchanged with the Services ID")
            let user = try #require(try await apple.server.store.user(id: link.userID))
            #expect(user.displayName == "Grace Hopper")

            let replayed = try await apple.server.app().send(
                .post, APIPaths.Apple.callback, text: body, headers: Self.form)
            #expect(
                replayed.status == .badRequest && replayed.errorCode == "apple.stateInvalid",
                "a state is used once: \(replayed)")
        }
    }

    @Test(arguments: Backend.available)
    func aBadCallbackIsRefusedAndCreatesNothing(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let query = try await authorize(apple, apple.server.browser())
            var forged = query
            forged["state"] = "made-up-state"
            let unknown = try await apple.server.app().send(
                .post, APIPaths.Apple.callback, text: try await callbackForm(apple, query: forged, subject: "001.bad"),
                headers: Self.form
            )
            #expect(unknown.status == .badRequest && unknown.errorCode == "apple.stateInvalid", "\(unknown)")

            var wrongNonce = query
            wrongNonce["nonce"] = AppleNonce.hashed("someone else's nonce")
            let mismatch = try await apple.server.app().send(
                .post, APIPaths.Apple.callback,
                text: try await callbackForm(apple, query: wrongNonce, subject: "001.bad"), headers: Self.form
            )
            #expect(mismatch.status == .badRequest && mismatch.errorCode == "apple.nonceMismatch", "\(mismatch)")

            let json = try await apple.server.app().send(.post, APIPaths.Apple.callback, text: #"{"state":"x"}"#)
            #expect(json.status == .unsupportedMediaType, "\(json)")
            #expect(try await apple.server.store.appleLink(subject: "001.bad") == nil)

            let cancelledQuery = try await authorize(apple, apple.server.browser())
            let cancelled = try await apple.server.app().send(
                .post, APIPaths.Apple.callback,
                text: FormEncoding.encode([
                    ("error", "user_cancelled_authorize"), ("state", cancelledQuery["state"] ?? ""),
                ]), headers: Self.form
            )
            #expect(
                cancelled.status == .seeOther
                    && cancelled.headers[.location] == "/?apple_error=user_cancelled_authorize", "\(cancelled)")
        }
    }

    @Test(arguments: Backend.available)
    func onAnHTTPSSiteTheCallbackMustComeFromTheBrowserThatStartedTheFlow(_ backend: Backend) async throws {
        try await withAppleServer(backend, configure: { $0.origins = ["https://localhost:8443"] }) { apple in
            let victim = apple.server.browser(origin: nil)
            let attacker = apple.server.browser(origin: nil)
            let query = try await authorize(apple, attacker)
            let binding = try #require(await attacker.cookies["latchkey_apple_state"])
            #expect(binding == query["state"])

            // The attacker's finished flow, fed to the victim's browser: refused, and the state is left alone.
            let form = try await callbackForm(apple, query: query, subject: "001.attacker")
            let fed = try await victim.send(.post, APIPaths.Apple.callback, text: form, headers: Self.form)
            #expect(fed.status == .badRequest && fed.errorCode == "apple.stateNotBound", "\(fed)")
            // On https the session cookie carries the __Host- prefix.
            #expect(await victim.cookies["__Host-latchkey_session"] == nil)
            #expect(try await apple.server.store.appleLink(subject: "001.attacker") == nil)

            let own = try await attacker.send(.post, APIPaths.Apple.callback, text: form, headers: Self.form)
            #expect(own.status == .seeOther, "\(own)")
            #expect(await attacker.cookies["__Host-latchkey_session"] != nil)
            #expect(await attacker.cookies["latchkey_apple_state"] == nil, "the binding is forgotten")
            let setCookies = own.headers[values: .setCookie].joined(separator: "\n")
            #expect(setCookies.contains("Secure"))
        }
    }

    @Test(arguments: Backend.available)
    func aPasskeyAccountLinksAnAppleIDAndCanThenDropItsLastPasskey(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let app = NativeClient(http: apple.server.app())
            let signedUp: SessionResponse = try await app.signUp("linus", with: VirtualAuthenticator()).decode()
            await app.http.setBearer(signedUp.session.token)

            let linked = try await apple.signIn(app.http, subject: "001.linus")
            #expect(linked.status == .ok, "\(linked)")
            #expect(
                try linked.decode(SessionResponse.self).user.id == signedUp.user.id, "linked to the signed-in account")

            let fresh: SessionResponse = try await apple.signIn(apple.server.app(), subject: "001.linus").decode()
            #expect(fresh.user.id == signedUp.user.id, "the Apple ID now signs in to the passkey account")

            let passkeys: PasskeyList = try await app.http.send(.get, APIPaths.Native.passkeys).decode()
            let only = try #require(passkeys.passkeys.first)
            let dropped = try await app.http.send(.delete, APIPaths.Native.passkeys + "/" + only.id)
            #expect(dropped.status == .ok, "the Apple link is another way in: \(dropped)")

            // Another account cannot take the same Apple ID.
            let other = NativeClient(http: apple.server.app())
            let otherSession: SessionResponse = try await other.signUp("mallory", with: VirtualAuthenticator()).decode()
            await other.http.setBearer(otherSession.session.token)
            let taken = try await apple.signIn(other.http, subject: "001.linus")
            #expect(taken.status == .conflict && taken.errorCode == "apple.linkedToAnotherUser", "\(taken)")
            #expect(
                try await apple.server.store.appleLinks(ofUser: try #require(UUID(uuidString: otherSession.user.id)))
                    .isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func aSignedInBrowserLinksItsAccountThroughTheWebFlow(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let browser = apple.server.browser()
            let signedUp: SessionResponse = try await NativeClient(http: browser).signUp(
                "webber", with: VirtualAuthenticator()
            ).decode()
            let query = try await authorize(apple, browser)
            let callback = try await apple.server.app().send(
                .post, APIPaths.Apple.callback,
                text: try await callbackForm(apple, query: query, subject: "001.webber"), headers: Self.form
            )
            #expect(callback.status == .seeOther, "\(callback)")
            let link = try #require(try await apple.server.store.appleLink(subject: "001.webber"))
            #expect(
                link.userID.uuidString.lowercased() == signedUp.user.id,
                "the Apple ID is linked to the browser's account")
        }
    }

    @Test(arguments: Backend.available)
    func anAppleMadeAccountAddsAPasskeyAndSignsInWithIt(_ backend: Backend) async throws {
        try await withAppleServer(backend) { apple in
            let session: SessionResponse = try await apple.signIn(apple.server.app(), subject: "001.addkey").decode()
            let app = NativeClient(http: await bearer(apple, session.session.token))
            let authenticator = VirtualAuthenticator()
            let added = try await app.addPasskey(name: "Laptop", with: authenticator)
            #expect(added.status == .created, "\(added)")

            let passkeySignIn: SessionResponse = try await NativeClient(http: apple.server.app()).signIn(
                with: authenticator
            ).decode()
            #expect(passkeySignIn.user.id == session.user.id)
        }
    }
}
