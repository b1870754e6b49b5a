import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyStore
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// `ConformanceClient` against the real server over real HTTP: the `/attestation/*` and `/assertion/*`
/// ceremonies with the ceremony cookie, on each database.
@Suite("ConformanceClient against the real server")
struct ConformanceClientServerTests {
    @Test(arguments: Backend.available)
    func registerThenAuthenticateWithAndWithoutAUsername(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let registered = try await server.conformance().register(
                username: "alice", displayName: "Alice", with: phone,
                authenticatorSelection: AuthenticatorSelectionCriteria(
                    residentKey: .required, userVerification: .required)
            )
            let user = try #require(try await server.store.user(named: "alice"))
            #expect(try await server.store.credentialCount(ofUser: user.id) == 1)

            let named = try await server.conformance().authenticate(
                username: "alice", with: phone, userVerification: .required)
            #expect(named.id == registered.id)
            let discoverable = try await server.conformance().authenticate(username: nil, with: phone)
            #expect(discoverable.id == registered.id)
            #expect(
                discoverable.response.userHandle?.bytes == Array(user.userHandle),
                "a discoverable assertion names its user")
        }
    }

    @Test(arguments: Backend.available)
    func theOptionsListTheUsersCredentials(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let registered = try await server.conformance().register(
                username: "alice", displayName: "Alice", with: phone)

            let assertion = try await server.conformance().assertionOptions(
                ServerRequestOptionsRequest(username: "alice"))
            #expect(assertion.allowCredentials?.map(\.id) == [registered.rawId])
            let usernameless = try await server.conformance().assertionOptions(
                ServerRequestOptionsRequest(username: nil))
            #expect(usernameless.allowCredentials == nil, "an empty allowCredentials is a username-less request")
        }
    }

    @Test(arguments: Backend.available)
    func refusalsCarryTheServersCodeAndChangeNothing(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let client = server.conformance()
            try await client.register(username: "alice", displayName: "Alice", with: phone)
            let user = try #require(try await server.store.user(named: "alice"))

            // A replayed result: the server consumed the ceremony and cleared its cookie, so the client has none to send.
            let options = try await client.assertionOptions(ServerRequestOptionsRequest(username: "alice"))
            let assertion = try await phone.authenticate(options: options)
            try await client.assertionResult(assertion)
            let replayed = await clientError { try await client.assertionResult(assertion) }
            #expect(replayed?.code == "ceremony.cookieMissing")
            #expect(replayed?.message.isEmpty == false)

            // Unknown user.
            let unknown = await clientError {
                try await server.conformance().authenticate(username: "nobody", with: phone)
            }
            // Decoy options (issue 14): the server does not say the name is unknown; no passkey matches them.
            #expect(unknown?.code == "authenticator.noCredentials")

            // Another client cannot register a second passkey under a taken name.
            let taken = await clientError {
                try await server.conformance().register(
                    username: "alice", displayName: "Mallory", with: LiveServer.passkeyProvider())
            }
            #expect(taken?.code == "user.nameTaken")

            // The same authenticator again: the server lists its credential in excludeCredentials and it refuses.
            let excluded = await clientError {
                try await client.register(username: "alice", displayName: "Alice", with: phone)
            }
            #expect(excluded?.code == "authenticator.excludedCredential")
            #expect(try await server.store.credentialCount(ofUser: user.id) == 1, "no refusal added a credential")
        }
    }

    @Test(arguments: Backend.available)
    func aSignedInAppAddsAPasskeyWithItsCookieAndAForeignPageIsRefused(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let key = VirtualAuthenticatorAdapter(
                VirtualAuthenticator(configuration: .securityKey), origin: LiveServer.origin)
            let app = server.conformance(origin: nil)
            try await app.register(username: "alice", displayName: "Alice", with: phone)
            let user = try #require(try await server.store.user(named: "alice"))

            // A page on another origin is refused before anything happens (cross-origin protection).
            let foreign = server.conformance(origin: "https://evil.example")
            let refused = await clientError {
                try await foreign.register(
                    username: "mallory", displayName: "Mallory", with: LiveServer.passkeyProvider())
            }
            #expect(refused?.code == "request.originNotAllowed")
            #expect(try await server.store.user(named: "mallory") == nil)

            // An app sends neither Origin nor Sec-Fetch-Site: it is not a browser, and its session cookie adds a passkey.
            let added = try await app.register(username: "alice", displayName: "Alice", with: key)
            #expect(try await server.store.credentialCount(ofUser: user.id) == 2)
            let signedInWithKey = try await server.conformance().authenticate(username: "alice", with: key)
            #expect(signedInWithKey.id == added.id)
        }
    }
}
