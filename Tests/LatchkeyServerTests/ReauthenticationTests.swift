import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyServer
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

/// Sensitive changes need a session whose user proved who they are within the window; re-authentication over HTTP, on
/// each database.
@Suite("Re-authentication before sensitive changes")
struct ReauthenticationTests {
    /// The `reauthentication` member of a 401 `reauth.required`.
    static func options(_ reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ReauthenticationOptions
    {
        #expect(reply.status == .unauthorized, "\(reply)", sourceLocation: sourceLocation)
        #expect(reply.errorCode == "reauth.required", "\(reply)", sourceLocation: sourceLocation)
        let body = try reply.decode(APIErrorBody.self, sourceLocation: sourceLocation)
        return try #require(body.error.reauthentication, sourceLocation: sourceLocation)
    }

    /// Re-authenticates with `authenticator` over `options`; sets the new token; returns the reply.
    static func reauthenticate(
        _ app: NativeClient, _ options: ReauthenticationOptions, with authenticator: VirtualAuthenticator,
        tampering: Tampering = .none
    ) async throws -> Reply {
        let passkey = try #require(options.passkey)
        let credential = try await authenticator.authenticate(
            options: passkey.options, origin: app.origin, tampering: tampering)
        let reply = try await app.http.send(
            .post, APIPaths.Native.reauthenticate,
            json: AuthenticationVerifyRequest(ticket: passkey.ticket, credential: credential))
        if reply.status == .ok { await app.http.setBearer(try reply.decode(SessionResponse.self).session.token) }
        return reply
    }

    @Test(
        "a session older than the window is refused each sensitive change; a passkey with UV lets it through",
        arguments: Backend.available)
    func staleSessionReauthenticatesWithAPasskey(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let phone = VirtualAuthenticator(configuration: .passkeyProvider)
            let app = NativeClient(http: server.app())
            try await app.signUpKeepingSession("alice", with: phone)
            let key = VirtualAuthenticator(configuration: .securityKey)
            #expect(try await app.addPasskey(with: key).status == .created, "a new account's session is verified")
            let staleToken = try #require(await app.http.bearer)
            try await server.database.ageSessionVerifications()

            let passkeys: PasskeyList = try await app.http.send(.get, APIPaths.Native.passkeys).decode()
            let keyID = try #require(passkeys.passkeys.last?.id)
            let refusals = [
                try await app.http.send(.delete, APIPaths.Native.passkey(id: keyID)),
                try await app.http.send(.post, APIPaths.Native.addPasskeyOptions, json: AddPasskeyOptionsRequest()),
                try await app.http.send(.delete, APIPaths.Native.sessions),
                try await app.http.send(.delete, APIPaths.Native.account),
                try await app.http.send(
                    .put, APIPaths.Native.password, json: SetPasswordRequest(newPassword: "a long new passphrase 7")),
                try await app.http.send(.delete, APIPaths.Native.password),
            ]
            for refusal in refusals {
                let options = try Self.options(refusal)
                #expect(options.passkey?.options.userVerification == .required)
                #expect(options.passkey?.options.allowCredentials?.count == 2)
                #expect(!options.password && !options.apple)
            }
            #expect(
                try await server.store.credentials(ofUser: try #require(await server.store.user(named: "alice")).id)
                    .count == 2,
                "nothing was removed")
            #expect(try await app.http.send(.get, APIPaths.Native.me).status == .ok, "the session itself still works")

            let reauthenticated = try await Self.reauthenticate(app, try Self.options(refusals[0]), with: phone)
            #expect(reauthenticated.status == .ok, "\(reauthenticated)")
            #expect(try await app.http.send(.delete, APIPaths.Native.passkey(id: keyID)).status == .ok)

            await app.http.setBearer(staleToken)
            #expect(
                try await app.http.send(.get, APIPaths.Native.me).errorCode == "session.invalid",
                "the old session ended")
        }
    }

    @Test(
        "a sign-in without user verification must re-authenticate, with it where the passkey can, with a touch where not",
        arguments: Backend.available)
    func signInWithoutUserVerification(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let phone = VirtualAuthenticator(configuration: .passkeyProvider)
            var keyConfiguration = VirtualAuthenticatorConfiguration.securityKey
            keyConfiguration.supportsUserVerification = false
            let key = VirtualAuthenticator(configuration: keyConfiguration)
            let app = NativeClient(http: server.app())
            try await app.signUpKeepingSession("alice", with: phone)
            #expect(try await app.addPasskey(with: key).status == .created)

            let laptop = NativeClient(http: server.app())
            let noUV = Tampering(clearUserVerification: true)
            let signedIn: SessionResponse = try await laptop.signIn("alice", with: phone, tampering: noUV).decode()
            await laptop.http.setBearer(signedIn.session.token)
            var options = try Self.options(try await laptop.http.send(.delete, APIPaths.Native.sessions))
            #expect(options.passkey?.options.userVerification == .preferred, "the key cannot verify the user")
            let refused = try await Self.reauthenticate(laptop, options, with: phone, tampering: noUV)
            #expect(refused.errorCode == "userVerificationRequired", "\(refused)")

            options = try Self.options(try await laptop.http.send(.delete, APIPaths.Native.sessions))
            #expect(try await Self.reauthenticate(laptop, options, with: key).status == .ok, "a touch is all it has")
            #expect(try await laptop.http.send(.delete, APIPaths.Native.sessions).status == .ok)
            #expect(try await app.http.send(.get, APIPaths.Native.me).errorCode == "session.invalid")
        }
    }

    @Test(
        "another account's passkey cannot re-authenticate a session, and a refused one changes nothing",
        arguments: Backend.available)
    func anotherAccountsPasskeyIsRefused(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let alice = NativeClient(http: server.app())
            try await alice.signUpKeepingSession("alice", with: VirtualAuthenticator())
            let bobsKey = VirtualAuthenticator()
            let bob = NativeClient(http: server.app())
            try await bob.signUpKeepingSession("bob", with: bobsKey)
            try await server.database.ageSessionVerifications()

            // Bob's own sign-in ceremony, finished at Alice's re-authentication.
            let bobsOptions: AuthenticationOptionsResponse = try await bob.http.send(
                .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: "bob")
            ).decode()
            let assertion = try await bobsKey.authenticate(options: bobsOptions.options, origin: ServerHarness.origin)
            let refused = try await alice.http.send(
                .post, APIPaths.Native.reauthenticate,
                json: AuthenticationVerifyRequest(ticket: bobsOptions.ticket, credential: assertion))
            #expect(refused.status == .forbidden && refused.errorCode == "session.wrongUser", "\(refused)")
            _ = try Self.options(try await alice.http.send(.delete, APIPaths.Native.sessions))
            #expect(try await bob.http.send(.get, APIPaths.Native.me).status == .ok, "Bob's session is untouched")
        }
    }

    @Test(
        "a password account re-authenticates with its password; a wrong one is refused and counted",
        arguments: Backend.available)
    func passwordReauthentication(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = server.app()
            let password = "correct horse battery staple 1"
            let session: SessionResponse = try await app.send(
                .post, APIPaths.Native.passwordRegister,
                json: PasswordRegisterRequest(username: "carol", password: password)
            ).decode()
            await app.setBearer(session.session.token)
            try await server.database.ageSessionVerifications()

            let change = SetPasswordRequest(currentPassword: password, newPassword: "a long new passphrase 7")
            let options = try Self.options(try await app.send(.put, APIPaths.Native.password, json: change))
            #expect(options.passkey == nil && options.password && !options.apple)

            let wrong = try await app.send(
                .post, APIPaths.Native.reauthenticatePassword,
                json: ReauthenticatePasswordRequest(password: "wrong one"))
            #expect(wrong.status == .unauthorized && wrong.errorCode == "password.invalid", "\(wrong)")
            let right = try await app.send(
                .post, APIPaths.Native.reauthenticatePassword, json: ReauthenticatePasswordRequest(password: password))
            #expect(right.status == .ok, "\(right)")
            await app.setBearer(try right.decode(SessionResponse.self).session.token)
            #expect(try await app.send(.put, APIPaths.Native.password, json: change).status == .noContent)
        }
    }

    @Test("the conformance profile adds a passkey only with a recently verified session")
    func conformanceAddsOnlyWhenRecent() async throws {
        try await withServer(.sqlite) { server in
            let browser = server.browser()
            let conformance = ConformanceClient(http: browser)
            #expect(try await conformance.register("dora", with: VirtualAuthenticator()).status == .ok)
            #expect(try await conformance.register("dora", with: VirtualAuthenticator()).status == .ok, "fresh")
            try await server.database.ageSessionVerifications()
            let stale = try await browser.send(
                .post, APIPaths.Conformance.attestationOptions,
                json: ServerCreationOptionsRequest(username: "dora", displayName: "dora"))
            #expect(stale.serverResponse?.errorCode == "user.nameTaken", "\(stale)")
        }
    }
}
