import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyServer
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// `NativeClient` over real HTTP: a sensitive change on a stale session re-authenticates with the client's
/// re-authenticator and is retried once; without one the app gets the options; the devices list and ending one.
@Suite("Client re-authentication and devices")
struct ReauthenticationClientServerTests {
    @Test(arguments: Backend.available)
    func aStaleSessionReauthenticatesAndRetriesOnce(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let client = NativeClient(server: server.url, transport: URLSessionTransport(), reauthenticator: phone)
            try await client.signUp(username: "alice", with: phone)
            let key = VirtualAuthenticatorAdapter(VirtualAuthenticator(), origin: LiveServer.origin)
            let added = try await client.addPasskey(name: "Key", with: key)
            let before = await client.sessionToken
            try await server.database.ageSessionVerifications()

            try await client.deletePasskey(id: added.id)
            #expect(try await client.passkeys().count == 1, "removed after re-authenticating")
            #expect(await client.sessionToken != before, "the client keeps the new session")

            let bare = NativeClient(server: server.url, transport: URLSessionTransport())
            await bare.setSessionToken(await client.sessionToken)
            try await server.database.ageSessionVerifications()
            do {
                try await bare.signOutEverywhere()
                Issue.record("a stale session signed out everywhere")
            } catch let error as LatchkeyClientError {
                guard case .reauthenticationRequired(let options) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(error.code == "reauth.required" && options.passkey != nil)
                try await bare.reauthenticate(options, with: phone)
                #expect(try await bare.signOutEverywhere().passkeys == 1)
            }
        }
    }

    @Test(arguments: Backend.available)
    func recoveryCodesBringBackALostPasskeysAccount(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let client = server.native()
            try await client.signUp(username: "carol", with: LiveServer.passkeyProvider())
            let codes = try await client.generateRecoveryCodes()
            #expect(codes.count == 10)
            #expect(try await client.recoveryCodesRemaining() == 10)

            let newPhone = VirtualAuthenticatorAdapter(VirtualAuthenticator(), origin: LiveServer.origin)
            let elsewhere = server.native()
            try await elsewhere.recover(username: "carol", code: codes[0], with: newPhone)
            #expect(try await elsewhere.me().name == "carol")
            #expect(try await elsewhere.recoveryCodesRemaining() == 9)
            await #expect(
                throws: LatchkeyClientError.server(
                    status: 401, code: "recovery.invalid",
                    message: "the username or the recovery code is wrong (or the code was used)")
            ) {
                try await server.native().recover(username: "carol", code: codes[0], with: newPhone)
            }
        }
    }

    @Test(arguments: Backend.available)
    func devicesAreListedAndOneEnds(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let first = server.native()
            try await first.signUp(username: "bob", with: phone)
            let second = server.native()
            try await second.signIn(username: "bob", with: phone)
            let sessions = try await second.sessions()
            #expect(sessions.count == 2 && sessions[0].current && !sessions[1].current)
            try await second.endSession(id: sessions[1].id)
            await #expect(throws: LatchkeyClientError.self) { _ = try await first.me() }
            #expect(try await second.me().name == "bob")
            try await second.endSession(id: sessions[0].id)
            #expect(await second.sessionToken == nil, "ending its own session forgets the token")
        }
    }
}
