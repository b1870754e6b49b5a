import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyStore
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// `NativeClient` against the real server over real HTTP: every `/v1` endpoint, on each database.
@Suite("NativeClient against the real server")
struct NativeClientServerTests {
    @Test(arguments: Backend.available)
    func signUpSignInAndMe(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let app = server.native()
            let signedUp = try await app.signUp(username: "alice", displayName: "Alice A.", with: phone)
            #expect(signedUp.session.user.name == "alice")
            #expect(signedUp.session.user.displayName == "Alice A.")
            #expect(signedUp.session.session.expiresAt > Date())
            #expect(await app.sessionToken == signedUp.session.session.token)
            let profile = try await app.me()
            #expect(profile.signInMethods == SignInMethods(passkeys: 1, password: false, apple: false))
            var me = profile
            me.signInMethods = nil  // only GET /v1/me says; the session answers carry the rest of the profile
            #expect(me == signedUp.session.user)

            let named = try await server.native().signIn(username: "alice", with: phone)
            #expect(named.session.user == me)
            #expect(named.credential.id == signedUp.credential.id)
            #expect(named.session.session.token != signedUp.session.session.token, "each sign-in is a new session")

            let usernameless = server.native()
            let discovered = try await usernameless.signIn(with: phone)
            #expect(discovered.session.user == me)
            #expect(try await usernameless.me() == profile)

            // A saved token restores the session on a new client.
            let restored = server.native()
            await restored.setSessionToken(signedUp.session.session.token)
            #expect(try await restored.me() == profile)
        }
    }

    @Test(arguments: Backend.available)
    func passkeysListRenameAddAndDelete(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let key = VirtualAuthenticatorAdapter(
                VirtualAuthenticator(configuration: .securityKey), origin: LiveServer.origin)
            let app = server.native()
            let signedUp = try await app.signUp(username: "alice", with: phone)

            let first = try #require(try await app.passkeys().first)
            #expect(try await app.passkeys().count == 1)
            #expect(first.id == signedUp.credential.id)
            #expect(first.name == nil)
            #expect(first.backedUp && first.backupEligible)
            #expect(first.deviceType == "multi-device")
            #expect(Set(first.transports) == ["internal", "hybrid"])
            #expect(first.aaguid == "00000000-0000-0000-0000-000000000000")
            #expect(first.createdAt <= Date())

            let renamed = try await app.renamePasskey(id: first.id, to: "  iPhone ")
            #expect(renamed.name == "iPhone")
            #expect(try await app.passkeys().first?.name == "iPhone")

            let added = try await app.addPasskey(name: "Blue key", with: key)
            #expect(added.name == "Blue key")
            #expect(added.deviceType == "single-device")
            #expect(added.transports == ["usb", "nfc"])
            #expect(added.aaguid == VirtualAuthenticator.defaultAAGUID.description)
            #expect(try await app.passkeys().map(\.id) == [first.id, added.id])

            // The added key signs in to the same account, and its use is recorded.
            let keySignIn = try await server.native().signIn(username: "alice", with: key)
            #expect(keySignIn.session.user.id == signedUp.session.user.id)
            #expect(try await app.passkeys().last?.lastUsedAt != nil)

            try await app.deletePasskey(id: added.id)
            #expect(try await app.passkeys().map(\.id) == [first.id])
            let deletedKey = await clientError { try await server.native().signIn(with: key) }
            #expect(deletedKey?.code == "credential.notFound")
        }
    }

    @Test(arguments: Backend.available)
    func deletingTheLastPasskeyIsRefusedWithTheServersCodeAndMessage(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let app = server.native()
            let signedUp = try await app.signUp(username: "alice", with: LiveServer.passkeyProvider())
            let error = await clientError { try await app.deletePasskey(id: signedUp.credential.id) }
            guard case .server(let status, let code, let message) = error else {
                Issue.record("expected a server error, got \(String(describing: error))")
                return
            }
            #expect(status == 409)
            #expect(code == "passkey.lastCredential")
            #expect(message.contains("last passkey"), "the server's own sentence: \(message)")
            #expect(try await app.passkeys().map(\.id) == [signedUp.credential.id], "nothing was deleted")

            let unknown = await clientError { try await app.renamePasskey(id: "AAAA", to: "x") }
            #expect(unknown?.code == "passkey.notFound")
        }
    }

    @Test(arguments: Backend.available)
    func logoutEndsTheSession(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let app = server.native()
            let token = try await app.signUp(username: "alice", with: LiveServer.passkeyProvider()).session.session
                .token
            try await app.logout()
            #expect(await app.sessionToken == nil)
            let anonymous = await clientError { try await app.me() }
            #expect(anonymous == .server(status: 401, code: "session.required", message: anonymous?.message ?? ""))

            // The old token is dead on the server, not only forgotten by the client.
            await app.setSessionToken(token)
            let revoked = await clientError { try await app.me() }
            #expect(revoked?.code == "session.invalid")
            #expect(revoked?.message.isEmpty == false)
        }
    }

    @Test(arguments: Backend.available)
    func deletingTheAccountRemovesItsPasskeysAndSessions(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let app = server.native()
            let signedUp = try await app.signUp(username: "alice", with: phone)
            let token = signedUp.session.session.token
            try await app.deleteAccount()
            #expect(try await server.store.user(named: "alice") == nil)

            await app.setSessionToken(token)
            #expect(await clientError { try await app.me() }?.code == "session.invalid")
            let usernameless = await clientError { try await server.native().signIn(with: phone) }
            #expect(usernameless?.code == "credential.notFound")
            let named = await clientError { try await server.native().signIn(username: "alice", with: phone) }
            #expect(
                named?.code == "authenticator.noCredentials", "decoy options: the deleted passkey is not among them")
        }
    }

    @Test(arguments: Backend.available)
    func refusalsCarryTheServersCodeAndChangeNothing(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let phone = LiveServer.passkeyProvider()
            let app = server.native()
            let signedUp = try await app.signUp(username: "alice", with: phone)

            // Unknown user.
            // Unknown user: decoy options, not an error (issue 14).
            let unknown = try await server.native().authenticationOptions(
                AuthenticationOptionsRequest(username: "nobody"))
            #expect(unknown.options.allowCredentials?.isEmpty == false)

            // The name is taken.
            let taken = await clientError {
                try await server.native().signUp(username: "alice", with: LiveServer.passkeyProvider())
            }
            #expect(taken?.code == "user.nameTaken")

            // A replayed sign-up ticket: the ceremony is single-use; the replay adds no passkey and opens no session.
            let signUp = server.native()
            let registration = try await signUp.registrationOptions(RegistrationOptionsRequest(username: "bob"))
            let created = try await LiveServer.passkeyProvider().register(options: registration.options)
            let signUpVerify = RegistrationVerifyRequest(ticket: registration.ticket, credential: created)
            let bob = try await signUp.registrationVerify(signUpVerify).user
            let signUpReplay = server.native()
            let replayedSignUp = await clientError { try await signUpReplay.registrationVerify(signUpVerify) }
            #expect(replayedSignUp?.code == "ceremony.notFound")
            #expect(await signUpReplay.sessionToken == nil)
            let bobID = try #require(UUID(uuidString: bob.id))
            #expect(try await server.store.credentialCount(ofUser: bobID) == 1)

            // A replayed sign-in ticket: the replay opens no session.
            let client = server.native()
            let started = try await client.authenticationOptions(AuthenticationOptionsRequest(username: "alice"))
            let credential = try await phone.authenticate(options: started.options)
            let verify = AuthenticationVerifyRequest(ticket: started.ticket, credential: credential)
            _ = try await client.authenticationVerify(verify)
            let replay = server.native()
            let replayed = await clientError { try await replay.authenticationVerify(verify) }
            #expect(replayed?.code == "ceremony.notFound")
            #expect(await replay.sessionToken == nil)

            // The authenticator refuses a credential the server lists in excludeCredentials: nothing is added.
            let excluded = await clientError { try await app.addPasskey(with: phone) }
            #expect(excluded == .authenticator(AuthenticatorError(.excludedCredential, excluded?.message ?? "")))
            #expect(excluded?.code == "authenticator.excludedCredential")
            #expect(try await app.passkeys().map(\.id) == [signedUp.credential.id])

            // Without a session the account endpoints refuse.
            let anonymous = server.native()
            #expect(await clientError { try await anonymous.passkeys() }?.code == "session.required")
            #expect(await clientError { try await anonymous.deleteAccount() }?.code == "session.required")
            #expect(try await server.store.user(named: "alice") != nil)
        }
    }

    @Test
    func aServerThatIsNotThereIsATransportError() async throws {
        let client = NativeClient(
            server: try #require(URL(string: "http://127.0.0.1:1/")), transport: URLSessionTransport(timeout: 5))
        let error = await clientError { try await client.signIn(with: LiveServer.passkeyProvider()) }
        guard case .transport(let message) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(error?.code == "client.transport")
        #expect(message.contains("127.0.0.1:1"), "the message names the server: \(message)")
    }
}
