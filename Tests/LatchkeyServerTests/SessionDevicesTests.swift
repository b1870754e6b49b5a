import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// The account's devices: `GET /v1/sessions` and `DELETE /v1/sessions/{id}`, on each database.
@Suite("Sessions as devices")
struct SessionDevicesTests {
    static let iPhoneSafari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"

    @Test(
        "each sign-in is a device with its label and network, newest first; ending one signs only it out",
        arguments: Backend.available)
    func listAndEndSessions(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let phone = VirtualAuthenticator(configuration: .passkeyProvider)
            let web = server.browser()
            #expect(try await NativeClient(http: web).signUp("alice", with: phone).status == .created)
            let app = NativeClient(http: server.app())
            let signedIn: SessionResponse = try await app.signIn("alice", with: phone).decode()
            await app.http.setBearer(signedIn.session.token)

            let listed: SessionList = try await app.http.send(
                .get, APIPaths.Native.sessions, headers: [.userAgent: "PasskeyApp/1.2 CFNetwork/1494 Darwin/23.0"]
            ).decode()
            #expect(listed.sessions.count == 2)
            #expect(listed.sessions.map(\.current) == [true, false], "newest first, the caller's marked")
            #expect(listed.sessions.allSatisfy { $0.id.count == 16 && $0.network == "127.0.0.0/24" })
            #expect(listed.sessions.allSatisfy { !signedIn.session.token.contains($0.id) }, "an id is not the token")

            let browserSession = try #require(listed.sessions.last)
            #expect(
                try await app.http.send(.delete, APIPaths.Native.session(id: browserSession.id)).status == .noContent)
            #expect(try await web.send(.get, APIPaths.Native.me).errorCode == "session.invalid", "that device is out")
            #expect(try await app.http.send(.get, APIPaths.Native.me).status == .ok, "this one is not")
            let again = try await app.http.send(.delete, APIPaths.Native.session(id: browserSession.id))
            #expect(again.status == .notFound && again.errorCode == "session.notFound")
        }
    }

    @Test("another account's session cannot be ended by its id", arguments: Backend.available)
    func anotherAccountsSessionIsNotFound(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let alice = server.app()
            let bob = server.app()
            for (client, name) in [(alice, "alice"), (bob, "bob")] {
                let session: SessionResponse = try await NativeClient(http: client).signUp(
                    name, with: VirtualAuthenticator()
                )
                .decode()
                await client.setBearer(session.session.token)
            }
            let bobs: SessionList = try await bob.send(.get, APIPaths.Native.sessions).decode()
            let id = try #require(bobs.sessions.first?.id)
            let refused = try await alice.send(.delete, APIPaths.Native.session(id: id))
            #expect(refused.status == .notFound && refused.errorCode == "session.notFound")
            #expect(try await bob.send(.get, APIPaths.Native.me).status == .ok)
        }
    }

    @Test("a session made in a browser is labelled by its user agent and remembers when it was last seen")
    func labelAndLastSeen() async throws {
        try await withServer(.sqlite) { server in
            let authenticator = VirtualAuthenticator()
            let app = server.app()
            let options: RegistrationOptionsResponse = try await app.send(
                .post, APIPaths.Native.registrationOptions, json: RegistrationOptionsRequest(username: "erin")
            ).decode()
            let credential = try await authenticator.register(options: options.options, origin: ServerHarness.origin)
            let body = try JSONEncoder().encode(
                RegistrationVerifyRequest(ticket: options.ticket, credential: credential))
            let signedUp: SessionResponse = try await app.send(
                .post, APIPaths.Native.registrationVerify, body: .init(bytes: body),
                headers: [.userAgent: Self.iPhoneSafari, .contentType: "application/json"]
            ).decode()
            await app.setBearer(signedUp.session.token)
            let user = try #require(try await server.store.user(named: "erin"))
            let stored = try #require(try await server.store.sessions(ofUser: user.id, now: Date()).first)
            #expect(stored.device == "Safari on iPhone")
            #expect(stored.lastSeenAt == nil && stored.verifiedAt != nil)

            // Seen again once the interval has passed: made to look old in the store, then used.
            try await server.store.markSessionSeen(
                tokenHash: stored.tokenHash, at: Date().addingTimeInterval(-SessionAuthenticator.lastSeenInterval - 1))
            #expect(try await app.send(.get, APIPaths.Native.me).status == .ok)
            let seen = try #require(try await server.store.sessions(ofUser: user.id, now: Date()).first?.lastSeenAt)
            #expect(Date().timeIntervalSince(seen) < 60)
        }
    }

    @Test("device labels name the browser and system, or the app")
    func deviceLabels() {
        let labels: [(String, String?)] = [
            (Self.iPhoneSafari, "Safari on iPhone"),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36",
                "Chrome on Windows"
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0",
                "Edge on macOS"
            ),
            ("Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0", "Firefox on Linux"),
            ("PasskeyApp/1.2 CFNetwork/1494 Darwin/23.0", "PasskeyApp"),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36",
                "Chrome on Android"
            ),
            (
                "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 Chrome/131.0 Safari/537.36",
                "Chrome on ChromeOS"
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari on iPad"
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; wv) AppleWebKit/537.36 Version/4.0 Chrome/131.0 Mobile Safari/537.36",
                "Chrome on Android"
            ),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5) Gecko/20100101 Firefox/131.0 Version/1", "Firefox on macOS"),
            // Each product mark of the browser table, and the second word of macOS.
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 CriOS/131.0 Mobile/15E148 Safari/604.1",
                "Chrome on iPhone"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 FxiOS/131.0 Mobile/15E148 Safari/605.1.15",
                "Firefox on iPhone"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 EdgiOS/131.0 Mobile/15E148 Safari/604.1",
                "Edge on iPhone"
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36 EdgA/131.0",
                "Edge on Android"
            ),
            ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chromium/131.0 Safari/537.36", "Chrome on Linux"),
            ("Mozilla/5.0 (Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15", "Safari on macOS"),
            ("curl/8.5.0", "curl"),
            (String(repeating: "a", count: 70) + "/1.0", String(repeating: "a", count: 60)),
            ("My_App-2.x/3 (iPhone)", "My_App-2.x on iPhone"),
            ("Näme/1.0", nil),
            ("App+/1.0 (Windows)", "Windows"),
            ("Mozilla/5.0 (compatible)", nil),
            ("<script>", nil),
        ]
        for (userAgent, label) in labels {
            #expect(SessionClient.deviceLabel(userAgent: userAgent) == label, "\(userAgent)")
        }
    }
}
