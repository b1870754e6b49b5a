import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// Cross-origin protection on every unsafe method, with Go 1.25's `CrossOriginProtection` rules (issue 14, finding 3).
@Suite("Cross-origin protection")
struct CrossOriginTests {
    private static let optionsBody = #"{"username":"alice"}"#

    /// Starts a sign-up (a verify-route neighbour that needs no session) with `headers`.
    private func startSignUp(_ server: ServerHarness, _ headers: HTTPFields) async throws -> Reply {
        try await server.app().send(
            .post, APIPaths.Native.registrationOptions, text: Self.optionsBody, headers: headers)
    }

    @Test func secFetchSiteDecidesForBrowsers() async throws {
        try await withServer(.sqlite) { server throws in
            let refused = try await startSignUp(
                server, [.secFetchSiteForTests: "cross-site", .origin: "https://evil.example"])
            #expect(refused.status == .forbidden, "\(refused)")
            #expect(refused.errorCode == "request.originNotAllowed")
            #expect(
                try await startSignUp(server, [.secFetchSiteForTests: "same-site", .origin: "https://sub.localhost"])
                    .status == .forbidden)
            #expect(
                try await startSignUp(server, [.secFetchSiteForTests: "cross-site"]).status == .forbidden,
                "no Origin at all")

            #expect(
                try await startSignUp(server, [.secFetchSiteForTests: "same-origin", .origin: ServerHarness.origin])
                    .status == .ok)
            #expect(try await startSignUp(server, [.secFetchSiteForTests: "none"]).status == .ok, "typed by the user")
            let related = try await startSignUp(
                server, [.secFetchSiteForTests: "cross-site", .origin: ServerHarness.origin])
            #expect(related.status == .ok, "one of the site's configured origins may post cross-site")
            let safe = try await server.app().send(
                .get, APIPaths.Web.config, headers: [.secFetchSiteForTests: "cross-site"])
            #expect(safe.status == .ok, "GET never changes state")
        }
    }

    @Test func withoutSecFetchSiteTheOriginMustBeTheHostOrTheSite() async throws {
        try await withServer(.sqlite) { server throws in
            // The test client sends Host: localhost.
            #expect(
                try await startSignUp(server, [.origin: "http://localhost"]).status == .ok, "Origin's host is the Host")
            #expect(try await startSignUp(server, [.origin: ServerHarness.origin]).status == .ok, "a configured origin")
            let foreign = try await startSignUp(server, [.origin: "https://evil.example"])
            #expect(foreign.status == .forbidden)
            #expect(foreign.errorCode == "request.originNotAllowed")
            #expect(try await startSignUp(server, [.origin: "null"]).status == .forbidden, "an opaque origin")
        }
    }

    @Test func anOriginsHostAndPort() {
        let cases: [(origin: String, expected: Substring?)] = [
            ("http://localhost", "localhost"), ("https://a.example:8443", "a.example:8443"),
            ("https://héllo.example", "héllo.example"),
            ("a:b://host", "host"), ("null", nil), ("https://", nil), ("https://a.example/path", nil),
            ("https://user@a.example", nil),
            ("localhost:8080", nil), ("", nil),
        ]
        for (origin, expected) in cases {
            #expect(CrossOriginProtection.hostAndPort(of: origin) == expected, "\(origin)")
        }
    }

    @Test func clientsThatAreNotBrowsersKeepTheirCookies() async throws {
        try await withServer(.sqlite) { server throws in
            // An iOS app with URLSession, or the FIDO conformance tool: cookies, no Origin, no Sec-Fetch-Site.
            let app = server.browser(origin: nil)
            let signedUp = try await NativeClient(http: app).signUp("alice", with: VirtualAuthenticator())
            #expect(signedUp.status == .created, "\(signedUp)")
            #expect(await app.cookies["latchkey_session"] != nil)
            #expect(try await app.send(.post, APIPaths.Native.logout).status == .noContent)
        }
    }

    @Test func verifyRoutesAreProtectedToo() async throws {
        try await withServer(.sqlite) { server throws in
            let app = server.app()
            let options: RegistrationOptionsResponse =
                try await app
                .send(.post, APIPaths.Native.registrationOptions, json: RegistrationOptionsRequest(username: "alice"))
                .decode()
            let credential = try await VirtualAuthenticator().register(
                options: options.options, origin: ServerHarness.origin)
            let forged = try await app.send(
                .post, APIPaths.Native.registrationVerify,
                json: RegistrationVerifyRequest(ticket: options.ticket, credential: credential),
                headers: [.secFetchSiteForTests: "cross-site", .origin: "https://evil.example"]
            )
            #expect(forged.errorCode == "request.originNotAllowed")
            let conformance = try await app.send(
                .post, APIPaths.Conformance.assertionResult, text: "{}", headers: [.origin: "https://evil.example"]
            )
            #expect(conformance.status == .forbidden)
            #expect(try await server.store.user(named: "alice") == nil)
        }
    }

    @Test func anotherSiteCannotStartTheAppleWebFlow() async throws {
        try await withAppleServer(.sqlite) { apple throws in
            let refused = try await apple.server.app().send(
                .get, APIPaths.Apple.authorize, headers: [.secFetchSiteForTests: "cross-site"])
            #expect(refused.status == .forbidden, "\(refused)")
            #expect(refused.errorCode == "request.originNotAllowed")
            let ours = try await apple.server.app().send(
                .get, APIPaths.Apple.authorize, headers: [.secFetchSiteForTests: "same-origin"])
            #expect(ours.status == .found)
        }
    }

    @Test func applesFormPostReachesTheCallback() async throws {
        try await withAppleServer(.sqlite) { apple throws in
            let reply = try await apple.server.app().send(
                .post, APIPaths.Apple.callback, text: "state=unknown",
                headers: [
                    .contentType: "application/x-www-form-urlencoded", .secFetchSiteForTests: "cross-site",
                    .origin: "https://appleid.apple.com",
                ]
            )
            #expect(reply.errorCode != "request.originNotAllowed", "\(reply)")
        }
    }
}

extension HTTPField.Name {
    static let secFetchSiteForTests = HTTPField.Name("Sec-Fetch-Site")!
}
