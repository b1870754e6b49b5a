import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// Recovery codes over HTTP, on each database: a user who lost their passkey gets back in with a code and a new passkey.
@Suite("Recovery codes")
struct RecoveryTests {
    /// Signs `name` up with `authenticator` and makes a set of recovery codes; returns the app and the codes.
    static func signUpWithCodes(_ server: ServerHarness, _ name: String, _ authenticator: VirtualAuthenticator)
        async throws -> (app: HTTPSession, codes: [String])
    {
        let app = server.app()
        let session: SessionResponse = try await NativeClient(http: app).signUp(name, with: authenticator).decode()
        await app.setBearer(session.session.token)
        let made = try await app.send(.post, APIPaths.Native.recoveryCodes)
        #expect(made.status == .created, "\(made)")
        return (app, try made.decode(RecoveryCodes.self).codes)
    }

    /// `POST /v1/recovery/options` then, when it opened a ceremony, the new passkey from `authenticator` and
    /// `POST /v1/recovery/verify`; returns both replies.
    static func recover(
        _ server: ServerHarness, _ name: String, code: String, with authenticator: VirtualAuthenticator
    ) async throws -> (options: Reply, verify: Reply?) {
        let client = server.app()
        let options = try await client.send(
            .post, APIPaths.Native.recoveryOptions, json: RecoveryOptionsRequest(username: name, code: code))
        guard options.status == .ok else { return (options, nil) }
        let started: RegistrationOptionsResponse = try options.decode()
        let credential = try await authenticator.register(options: started.options, origin: ServerHarness.origin)
        let verify = try await client.send(
            .post, APIPaths.Native.recoveryVerify,
            json: RegistrationVerifyRequest(ticket: started.ticket, credential: credential))
        return (options, verify)
    }

    @Test(
        "lose the passkey, recover with a code and a new passkey, sign in with it; each code works once",
        arguments: Backend.available)
    func recoverWithACode(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let (app, codes) = try await Self.signUpWithCodes(server, "alice", VirtualAuthenticator())
            #expect(codes.count == 10 && Set(codes).count == 10)
            #expect(codes.allSatisfy { $0.count == 19 && $0.split(separator: "-").count == 4 })
            let status: RecoveryCodeStatus = try await app.send(.get, APIPaths.Native.recoveryCodes).decode()
            #expect(status.remaining == 10)

            // The phone is lost: a new authenticator, and a code typed in lower case without its dashes.
            let newPhone = VirtualAuthenticator()
            let typed = codes[3].lowercased().replacingOccurrences(of: "-", with: "")
            let (options, verify) = try await Self.recover(server, "alice", code: typed, with: newPhone)
            #expect(options.status == .ok, "\(options)")
            #expect(verify?.status == .created, "\(String(describing: verify))")
            let signedIn = try await NativeClient(http: server.app()).signIn("alice", with: newPhone)
            #expect(signedIn.status == .ok, "the new passkey signs in")
            let user = try #require(try await server.store.user(named: "alice"))
            #expect(try await server.store.credentials(ofUser: user.id).count == 2)
            #expect(try await server.store.recoveryCodeCount(ofUser: user.id) == 9)

            let again = try await Self.recover(server, "alice", code: codes[3], with: VirtualAuthenticator())
            #expect(again.options.status == .unauthorized && again.options.errorCode == "recovery.invalid")
        }
    }

    @Test(
        "a wrong code, an unknown name and a malformed code answer alike; a new set revokes the old",
        arguments: Backend.available)
    func refusalsAndRevocation(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let (app, old) = try await Self.signUpWithCodes(server, "bob", VirtualAuthenticator())
            let refusals = [
                try await Self.recover(server, "bob", code: "AAAA-AAAA-AAAA-AAAA", with: VirtualAuthenticator())
                    .options,
                try await Self.recover(server, "nobody", code: old[0], with: VirtualAuthenticator()).options,
                try await Self.recover(server, "bob", code: "not a code", with: VirtualAuthenticator()).options,
            ]
            let bodies = Set(refusals.map(\.text))
            #expect(refusals.allSatisfy { $0.status == .unauthorized && $0.errorCode == "recovery.invalid" })
            #expect(bodies.count == 1, "the same answer: \(bodies)")

            let renewed = try await app.send(.post, APIPaths.Native.recoveryCodes)
            #expect(renewed.status == .created)
            let stale = try await Self.recover(server, "bob", code: old[1], with: VirtualAuthenticator())
            #expect(stale.options.errorCode == "recovery.invalid", "the old set stopped working")
            let fresh = try renewed.decode(RecoveryCodes.self).codes[0]
            #expect(
                try await Self.recover(server, "bob", code: fresh, with: VirtualAuthenticator()).verify?.status
                    == .created)
        }
    }

    @Test("guessing is throttled per account name, a right code included, with Retry-After")
    func guessingIsThrottled() async throws {
        try await withServer(.sqlite) { server in
            let (_, codes) = try await Self.signUpWithCodes(server, "carol", VirtualAuthenticator())
            for _ in 0..<5 {
                let wrong = try await Self.recover(
                    server, "carol", code: "AAAA-AAAA-AAAA-AAAA", with: VirtualAuthenticator())
                #expect(wrong.options.errorCode == "recovery.invalid")
            }
            let throttled = try await Self.recover(server, "carol", code: codes[0], with: VirtualAuthenticator())
                .options
            #expect(throttled.status == .tooManyRequests && throttled.errorCode == "recovery.throttled")
            #expect(Int(throttled.headers[.retryAfter] ?? "") ?? 0 > 0)
            let user = try #require(try await server.store.user(named: "carol"))
            #expect(try await server.store.recoveryCodeCount(ofUser: user.id) == 10, "no code was spent")
        }
    }

    @Test("making codes needs a recent re-authentication; a recovery ticket finishes nowhere else")
    func codesNeedReauthenticationAndTicketsStayInTheirPlace() async throws {
        try await withServer(.sqlite) { server in
            let (app, codes) = try await Self.signUpWithCodes(server, "dave", VirtualAuthenticator())
            try await server.database.ageSessionVerifications()
            let stale = try await app.send(.post, APIPaths.Native.recoveryCodes)
            #expect(stale.status == .unauthorized && stale.errorCode == "reauth.required")

            let options = try await server.app().send(
                .post, APIPaths.Native.recoveryOptions, json: RecoveryOptionsRequest(username: "dave", code: codes[0]))
            let started: RegistrationOptionsResponse = try options.decode()
            let credential = try await VirtualAuthenticator().register(
                options: started.options, origin: ServerHarness.origin)
            for path in [APIPaths.Native.registrationVerify, APIPaths.Native.addPasskeyVerify] {
                let elsewhere = try await app.send(
                    .post, path, json: RegistrationVerifyRequest(ticket: started.ticket, credential: credential))
                #expect(elsewhere.errorCode == "ceremony.notFound", "\(path): \(elsewhere)")
            }
        }
    }

    @Test(
        "an operator's link recovers once, before it expires; a request must be a code or a link",
        arguments: Backend.available)
    func recoverWithAnOperatorsLink(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            _ = try await Self.signUpWithCodes(server, "erin", VirtualAuthenticator())
            let link = try await RecoveryLinks.issue(for: "Erin", origin: "https://example.com/", in: server.store)
            #expect(link.url == "https://example.com/#recover=\(link.token)")

            func recover(token: String) async throws -> (Reply, Reply?) {
                let client = server.app()
                let options = try await client.send(
                    .post, APIPaths.Native.recoveryOptions, json: RecoveryOptionsRequest(token: token))
                guard options.status == .ok else { return (options, nil) }
                let started: RegistrationOptionsResponse = try options.decode()
                let credential = try await VirtualAuthenticator().register(
                    options: started.options, origin: ServerHarness.origin)
                return (
                    options,
                    try await client.send(
                        .post, APIPaths.Native.recoveryVerify,
                        json: RegistrationVerifyRequest(ticket: started.ticket, credential: credential))
                )
            }
            #expect(try await recover(token: link.token).1?.status == .created)
            #expect(try await recover(token: link.token).0.errorCode == "recovery.invalid", "used once")

            let expired = try await RecoveryLinks.issue(
                for: "erin", origin: "https://example.com", lifetime: .seconds(60), in: server.store,
                now: Date().addingTimeInterval(-120))
            #expect(try await recover(token: expired.token).0.errorCode == "recovery.invalid", "expired")
            #expect(try await recover(token: "not-a-token").0.errorCode == "recovery.invalid")

            let both = try await server.app().send(
                .post, APIPaths.Native.recoveryOptions, json: ["username": "erin", "token": link.token])
            #expect(both.status == .badRequest && both.errorCode == "request.invalidField", "\(both)")
            await #expect(throws: StoreError.self) {
                _ = try await RecoveryLinks.issue(for: "nobody", origin: "https://example.com", in: server.store)
            }
        }
    }
}
