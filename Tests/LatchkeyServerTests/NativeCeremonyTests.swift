import Foundation
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

@testable import LatchkeyServer

/// Full ceremonies over the native `/v1` API with a virtual authenticator, on each database.
@Suite("Native API ceremonies")
struct NativeCeremonyTests {
    @Test("PostgreSQL backend is configured", .enabled(if: Backend.postgresURL != nil, "\(Backend.skipMessage)"))
    func postgresIsConfigured() async throws {
        try await withServer(.postgres) { server in
            let health = try await server.app().send(.get, APIPaths.Operations.health)
            #expect(health.status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func signUpThenSignInByUsernameAndUsernameless(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator(configuration: .passkeyProvider)
            let app = NativeClient(http: server.app())

            let signUp = try await app.signUp("alice@example.com", displayName: "Alice", with: authenticator)
            #expect(signUp.status == .created, "\(signUp)")
            let created: SessionResponse = try signUp.decode()
            #expect(created.user.name == "alice@example.com")
            #expect(created.user.displayName == "Alice")
            #expect(created.session.token.count == 43)
            #expect(created.session.expiresAt > Date())

            let byName = try await app.signIn("ALICE@example.com", with: authenticator)
            #expect(byName.status == .ok, "\(byName)")
            #expect(try byName.decode(SessionResponse.self).user.id == created.user.id)

            let discoverable = try await app.signIn(nil, with: authenticator)
            #expect(discoverable.status == .ok, "\(discoverable)")
            let session: SessionResponse = try discoverable.decode()
            #expect(session.user.id == created.user.id)
            #expect(session.session.token != created.session.token)

            // The store keeps only the token's hash.
            let user = try #require(try await server.store.user(named: "alice@example.com"))
            #expect(user.id.uuidString.lowercased() == created.user.id)
            let credential = try #require(try await server.store.credentials(ofUser: user.id).first)
            #expect(credential.lastUsedAt != nil)
            #expect(credential.backupEligible && credential.backedUp)
            #expect(credential.discoverable == true)
        }
    }

    @Test(arguments: Backend.available)
    func signInUpdatesTheSignCount(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator(configuration: .securityKey)
            let app = NativeClient(http: server.app())
            #expect(try await app.signUp("bob", with: authenticator).status == .created)
            #expect(try await app.signIn("bob", with: authenticator).status == .ok)
            #expect(try await app.signIn("bob", with: authenticator).status == .ok)
            let user = try #require(try await server.store.user(named: "bob"))
            let credential = try #require(try await server.store.credentials(ofUser: user.id).first)
            #expect(credential.signCount == 2)
        }
    }

    @Test(arguments: Backend.available)
    func signUpWithATakenNameIsRefused(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let app = NativeClient(http: server.app())
            #expect(try await app.signUp("carol", with: VirtualAuthenticator()).status == .created)
            let again = try await server.app().send(
                .post, APIPaths.Native.registrationOptions, json: RegistrationOptionsRequest(username: "Carol"))
            #expect(again.status == .conflict)
            #expect(again.errorCode == "user.nameTaken")
        }
    }

    @Test(arguments: Backend.available)
    func aTicketIsSingleUse(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            let app = NativeClient(http: server.app())
            #expect(try await app.signUp("dave", with: authenticator).status == .created)

            let options: AuthenticationOptionsResponse = try await server.app()
                .send(
                    .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: "dave")
                ).decode()
            let credential = try await authenticator.authenticate(
                options: options.options, origin: ServerHarness.origin)
            let body = AuthenticationVerifyRequest(ticket: options.ticket, credential: credential)
            #expect(try await server.app().send(.post, APIPaths.Native.authenticationVerify, json: body).status == .ok)
            let replay = try await server.app().send(.post, APIPaths.Native.authenticationVerify, json: body)
            #expect(replay.status == .notFound)
            #expect(replay.errorCode == "ceremony.notFound")
        }
    }

    @Test("a failed sign-in spends its ticket: the challenge cannot be tried again", arguments: Backend.available)
    func aFailedSignInBurnsTheTicket(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            #expect(try await NativeClient(http: server.app()).signUp("fred", with: authenticator).status == .created)
            let options: AuthenticationOptionsResponse = try await server.app()
                .send(
                    .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: "fred")
                ).decode()
            let forged = try await authenticator.authenticate(
                options: options.options, origin: ServerHarness.origin,
                tampering: Tampering(origin: "https://evil.example")
            )
            let failed = try await server.app().send(
                .post, APIPaths.Native.authenticationVerify,
                json: AuthenticationVerifyRequest(ticket: options.ticket, credential: forged)
            )
            #expect(failed.status == .badRequest, "\(failed)")
            let genuine = try await authenticator.authenticate(options: options.options, origin: ServerHarness.origin)
            let retry = try await server.app().send(
                .post, APIPaths.Native.authenticationVerify,
                json: AuthenticationVerifyRequest(ticket: options.ticket, credential: genuine)
            )
            #expect(retry.errorCode == "ceremony.notFound", "\(retry)")
        }
    }

    @Test(
        "an expired ticket is refused as expired every time; a malformed, changed or other kind's ticket is not found",
        arguments: Backend.available)
    func ticketsThatCannotFinish(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let tickets = CeremonyTickets(store: server.store, lifetime: server.configuration.ceremonyLifetime)
            let pending = PendingAuthentication(
                challenge: Array(repeating: 1, count: 32), allowedCredentialIDs: [], userVerification: .preferred,
                userHandle: nil
            )
            let credential =
                #"{"id":"AAAA","rawId":"AAAA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AAAA","signature":"AAAA"}}"#
            func finish(_ ticket: String) async throws -> Reply {
                try await server.app().send(
                    .post, APIPaths.Native.authenticationVerify,
                    text: #"{"ticket":""# + ticket + #"","credential":"# + credential + "}")
            }

            let expired = try await tickets.seal(.authentication, state: pending, now: Date().addingTimeInterval(-600))
            for _ in 0..<2 {
                let reply = try await finish(expired)
                #expect(reply.status == .gone, "\(reply)")
                #expect(reply.errorCode == "ceremony.expired")
            }

            let live = try await tickets.seal(.authentication, state: pending, now: Date())
            var changed = Array(live.utf8)
            changed[30] = changed[30] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let registration = try await tickets.seal(.registration, state: pending, now: Date())
            for ticket in [
                String(decoding: changed, as: UTF8.self), registration, "not a ticket!", "AAAA",
                String(live.dropLast(4)),
            ] {
                let reply = try await finish(ticket)
                #expect(reply.status == .notFound, "\(ticket): \(reply)")
                #expect(reply.errorCode == "ceremony.notFound")
            }
        }
    }

    /// A pending state of a shape this version does not read, as an earlier version might have sealed.
    private struct EarlierShape: CeremonyState, Codable {
        var allowedCredentialIDs: [String] = []
        var requireUserVerification = false
    }

    @Test(
        "a ticket sealed with state of another shape (by an earlier version) is expired, never a 500",
        arguments: Backend.available)
    func aTicketOfAnEarlierShapeIsExpired(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let tickets = CeremonyTickets(store: server.store, lifetime: server.configuration.ceremonyLifetime)
            let ticket = try await tickets.seal(.authentication, state: EarlierShape(), now: Date())
            let credential =
                #"{"id":"AAAA","rawId":"AAAA","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AAAA","signature":"AAAA"}}"#
            let reply = try await server.app().send(
                .post, APIPaths.Native.authenticationVerify,
                text: #"{"ticket":""# + ticket + #"","credential":"# + credential + "}")
            #expect(reply.status == .gone, "\(reply)")
            #expect(reply.errorCode == "ceremony.expired")
        }
    }

    @Test(
        "a sign-in begun for one account refuses another account's passkey (checked by the library) and burns the ticket",
        arguments: Backend.available)
    func anotherAccountsPasskeyIsRefused(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let alices = VirtualAuthenticator()
            let bobs = VirtualAuthenticator()
            #expect(try await NativeClient(http: server.app()).signUp("alice", with: alices).status == .created)
            #expect(try await NativeClient(http: server.app()).signUp("bob", with: bobs).status == .created)
            let options: AuthenticationOptionsResponse = try await server.app()
                .send(
                    .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: "alice")
                ).decode()
            var unlisted = options.options
            unlisted.allowCredentials = nil
            let assertion = try await bobs.authenticate(options: unlisted, origin: ServerHarness.origin)
            let reply = try await server.app().send(
                .post, APIPaths.Native.authenticationVerify,
                json: AuthenticationVerifyRequest(ticket: options.ticket, credential: assertion)
            )
            #expect(reply.status == .badRequest, "\(reply)")
            #expect(reply.errorCode == "credentialNotAllowed")
            let genuine = try await alices.authenticate(options: options.options, origin: ServerHarness.origin)
            let retry = try await server.app().send(
                .post, APIPaths.Native.authenticationVerify,
                json: AuthenticationVerifyRequest(ticket: options.ticket, credential: genuine)
            )
            #expect(retry.errorCode == "ceremony.notFound", "the refusal spent the ticket: \(retry)")
        }
    }

    @Test(arguments: Backend.available)
    func verifyFailuresAnswerTheWebAuthnCode(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            let app = NativeClient(http: server.app())
            let wrongOrigin = try await app.signUp(
                "erin", with: authenticator, tampering: Tampering(origin: "https://evil.example"))
            #expect(wrongOrigin.status == .badRequest)
            #expect(wrongOrigin.errorCode == WebAuthnError.Code.originNotAllowed.rawValue)
            #expect(try await server.store.user(named: "erin") == nil)

            let missing = try await app.signUp("erin", with: authenticator) { $0["ticket"] = nil }
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "request.missingField")

            let broken = try await app.signUp("erin", with: authenticator) { envelope in
                var credential = envelope["credential"] as? [String: Any] ?? [:]
                credential["response"] = ["clientDataJSON": "%%%"]
                envelope["credential"] = credential
            }
            #expect(broken.status == .badRequest)
            #expect(broken.errorCode == WebAuthnError.Code.invalidBase64.rawValue, "\(broken)")

            let notString = try await app.signUp("erin", with: authenticator) { $0["ticket"] = 42 }
            #expect(notString.errorCode == "request.invalidField", "\(notString)")
            let noCredential = try await app.signUp("erin", with: authenticator) { $0["credential"] = nil }
            #expect(noCredential.errorCode == WebAuthnError.Code.malformedCredential.rawValue, "\(noCredential)")
            let mismatch = try await app.signUp("erin", with: authenticator) { envelope in
                var credential = envelope["credential"] as? [String: Any] ?? [:]
                credential["id"] = "AAAA"
                envelope["credential"] = credential
            }
            #expect(mismatch.errorCode == WebAuthnError.Code.credentialIdMismatch.rawValue, "\(mismatch)")
            let notJSON = try await server.app().send(
                .post, APIPaths.Native.registrationVerify, text: #"{"ticket":"x","credential":"#)
            #expect(notJSON.errorCode == "request.malformedJSON", "\(notJSON)")
            #expect(try await server.store.user(named: "erin") == nil)
        }
    }
}
