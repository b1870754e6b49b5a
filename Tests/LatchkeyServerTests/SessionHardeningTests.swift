import Crypto
import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyServer
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

/// Sign out everywhere, sessions that end with their passkey, the `__Host-` cookie and ambiguous cookies (issue 14, finding 6).
@Suite("Session hardening")
struct SessionHardeningTests {
    /// A fresh app client signed in with `authenticator` as `name`, carrying its Bearer token.
    private func signedIn(_ server: ServerHarness, _ name: String, _ authenticator: VirtualAuthenticator) async throws
        -> NativeClient
    {
        let app = NativeClient(http: server.app())
        let reply = try await app.signIn(name, with: authenticator)
        #expect(reply.status == .ok, "\(reply)")
        await app.http.setBearer(try reply.decode(SessionResponse.self).session.token)
        return app
    }

    @Test(arguments: Backend.available)
    func signOutEverywhereEndsEverySessionOfTheAccountOnly(_ backend: Backend) async throws {
        try await withServer(backend) { server throws in
            let phone = VirtualAuthenticator()
            let first = try await server.signedUpApp("alice", with: phone)
            let second = try await signedIn(server, "alice", phone)
            let bob = try await server.signedUpApp("bob", with: VirtualAuthenticator())

            let ended = try await second.http.send(.delete, APIPaths.Native.sessions)
            #expect(ended.status == .ok, "\(ended)")
            // Review finding 10: ending sessions removes no way in, and the answer says which remain.
            #expect(
                try ended.decode(SignedOutEverywhereResponse.self).remainingSignInMethods
                    == SignInMethods(passkeys: 1, password: false, apple: false))
            #expect(ended.headers[values: .setCookie].contains { $0.contains("Max-Age=0") }, "the cookie is cleared")
            for app in [first, second] {
                let me = try await app.http.send(.get, APIPaths.Native.me)
                #expect(me.errorCode == "session.invalid", "every session of the account ends, the caller's too")
            }
            #expect(
                try await bob.http.send(.get, APIPaths.Native.me).status == .ok, "another account keeps its session")
            #expect(try await server.app().send(.delete, APIPaths.Native.sessions).errorCode == "session.required")
        }
    }

    @Test(arguments: Backend.available)
    func removingAPasskeyEndsTheSessionsMadeWithIt(_ backend: Backend) async throws {
        try await withServer(backend) { server throws in
            let phone = VirtualAuthenticator()
            let key = VirtualAuthenticator(configuration: .securityKey)
            let phoneSession = try await server.signedUpApp("alice", with: phone)
            #expect(try await phoneSession.addPasskey(name: "key", with: key).status == .created)
            let keySession = try await signedIn(server, "alice", key)
            let keySessionToo = try await signedIn(server, "alice", key)

            let list: PasskeyList = try await phoneSession.http.send(.get, APIPaths.Native.passkeys).decode()
            let keyID = try #require(list.passkeys.first { $0.name == "key" }?.id)
            #expect(try await phoneSession.http.send(.delete, APIPaths.Native.passkey(id: keyID)).status == .ok)

            for app in [keySession, keySessionToo] {
                #expect(
                    try await app.http.send(.get, APIPaths.Native.me).errorCode == "session.invalid",
                    "made with the removed key")
            }
            #expect(
                try await phoneSession.http.send(.get, APIPaths.Native.me).status == .ok, "made with another passkey")
        }
    }

    @Test(arguments: Backend.available)
    func removingThePasskeyYouSignedInWithKeepsYouSignedIn(_ backend: Backend) async throws {
        try await withServer(backend) { server throws in
            let phone = VirtualAuthenticator()
            let key = VirtualAuthenticator(configuration: .securityKey)
            let caller = try await server.signedUpApp("alice", with: phone)
            let otherPhoneSession = try await signedIn(server, "alice", phone)
            #expect(try await caller.addPasskey(name: "key", with: key).status == .created)
            let list: PasskeyList = try await caller.http.send(.get, APIPaths.Native.passkeys).decode()
            let phoneID = try #require(list.passkeys.first { $0.name != "key" }?.id)

            #expect(try await caller.http.send(.delete, APIPaths.Native.passkey(id: phoneID)).status == .ok)
            #expect(
                try await caller.http.send(.get, APIPaths.Native.me).status == .ok, "the caller's own session stays")
            #expect(try await otherPhoneSession.http.send(.get, APIPaths.Native.me).errorCode == "session.invalid")
        }
    }

    @Test(arguments: Backend.available)
    func theStoreRecordsWhichPasskeyMadeASession(_ backend: Backend) async throws {
        try await withServer(backend) { server throws in
            let app = NativeClient(http: server.app())
            let session: SessionResponse = try await app.signUp("alice", with: VirtualAuthenticator()).decode()
            let user = try #require(try await server.store.user(named: "alice"))
            let credential = try #require(try await server.store.credentials(ofUser: user.id).first)
            let bytes = try #require(Base64URL.decode(session.session.token))
            let stored = try await server.store.session(tokenHash: Data(SHA256.hash(data: bytes)), now: Date())
            #expect(stored?.credentialID == credential.id)
        }
    }

    /// Other spellings of the same bytes: the standard alphabet, and the unused low bits of the last character set.
    static func otherSpellings(of token: String) -> [String] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var spellings: [String] = []
        if let last = token.last, let index = alphabet.firstIndex(of: last), index & 3 != 3 {
            spellings.append(String(token.dropLast()) + String(alphabet[index | 3]))
        }
        let standard = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if standard != token { spellings.append(standard) }
        spellings.append(token + "=")
        return spellings
    }

    @Test func tokensAreAcceptedOnlyInCanonicalBase64URL() async throws {
        try await withServer(.sqlite) { server throws in
            // Sign up until the token has a character the standard alphabet spells otherwise ('-' or '_').
            var token = ""
            for index in 0..<20 where !(token.contains("-") || token.contains("_")) {
                let reply = try await NativeClient(http: server.app()).signUp(
                    "user\(index)", with: VirtualAuthenticator())
                token = try reply.decode(SessionResponse.self).session.token
            }
            let app = server.app()
            await app.setBearer(token)
            #expect(try await app.send(.get, APIPaths.Native.me).status == .ok)
            let spellings = Self.otherSpellings(of: token)
            #expect(spellings.count >= 2)
            for spelling in spellings {
                await app.setBearer(spelling)
                let reply = try await app.send(.get, APIPaths.Native.me)
                #expect(reply.errorCode == "session.invalid", "\(spelling): \(reply)")
            }
        }
    }

    @Test func twoSessionCookiesAreRefused() async throws {
        try await withServer(.sqlite) { server throws in
            let browser = server.browser()
            let signedUp = try await NativeClient(http: browser).signUp("alice", with: VirtualAuthenticator())
            let token = try signedUp.decode(SessionResponse.self).session.token
            #expect(try await browser.send(.get, APIPaths.Native.me).status == .ok)
            let planted = try await server.app().send(
                .get, APIPaths.Native.me, headers: [.cookie: "latchkey_session=\(token); latchkey_session=\(token)"]
            )
            #expect(planted.status == .badRequest, "\(planted)")
            #expect(planted.errorCode == "session.ambiguous")
            let split = try await server.app().send(
                .get, APIPaths.Native.me, headers: [.cookie: "other=1; latchkey_session=\(token)"]
            )
            #expect(split.status == .ok, "one session cookie among others is fine")
        }
    }

    @Test func theSessionCookieHasTheHostPrefixOnHTTPS() async throws {
        var settings = ServerSettings.test
        settings.rpID = "example.com"
        settings.origins = ["https://example.com"]
        try await withServer(.sqlite, settings: settings) { server throws in
            let browser = server.browser(origin: "https://example.com")
            var web = NativeClient(http: browser)
            web.origin = "https://example.com"
            let reply = try await web.signUp("alice", with: VirtualAuthenticator())
            let setCookie = try #require(
                reply.headers[values: .setCookie].first { $0.contains("latchkey_session=") }, "\(reply)")
            #expect(setCookie.hasPrefix("__Host-latchkey_session="))
            #expect(setCookie.contains("Secure") && setCookie.contains("Path=/") && !setCookie.contains("Domain"))
            #expect(try await browser.send(.get, APIPaths.Native.me).status == .ok, "the prefixed cookie signs in")
            let token = try reply.decode(SessionResponse.self).session.token
            let unprefixed = try await server.app().send(
                .get, APIPaths.Native.me, headers: [.cookie: "latchkey_session=\(token)"])
            #expect(
                unprefixed.errorCode == "session.required", "a cookie without the prefix is not the session on https")
        }
    }
}
