import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyServer
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

/// Sign-in options do not tell whether an account name exists, and attempts per name are limited (issue 14, finding 4).
@Suite("User enumeration")
struct UserEnumerationTests {
    private func options(_ session: HTTPSession, _ name: String) async throws -> Reply {
        try await session.send(
            .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: name))
    }

    /// The JSON keys of the options and of each descriptor, with the answer's status: what a prober can compare.
    private func shape(_ reply: Reply) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        let options = try #require(object["options"] as? [String: Any])
        let descriptors = try #require(options["allowCredentials"] as? [[String: Any]])
        // The count is not part of the shape: real accounts have one passkey or several, and so do decoys.
        return
            "\(reply.status.code) \(object.keys.sorted()) \(options.keys.sorted()) \(Set(descriptors.map { $0.keys.sorted() }))"
    }

    private func allowed(_ reply: Reply) throws -> [PublicKeyCredentialDescriptor] {
        try reply.decode(AuthenticationOptionsResponse.self).options.allowCredentials ?? []
    }

    @Test(arguments: Backend.available)
    func anUnknownNameGetsDecoyOptionsShapedLikeARealOne(_ backend: Backend) async throws {
        try await withServer(backend) { server throws in
            _ = try await NativeClient(http: server.app()).signUp("alice", with: VirtualAuthenticator())
            let real = try await options(server.app(), "alice")
            let decoy = try await options(server.app(), "nobody")
            #expect(decoy.status == .ok, "\(decoy)")
            #expect(try shape(decoy) == shape(real))
            let ids = try allowed(decoy).map(\.id)
            let again = try allowed(await options(server.app(), "nobody")).map(\.id)
            let otherCase = try allowed(await options(server.app(), "NoBody")).map(\.id)
            let otherName = try allowed(await options(server.app(), "somebody")).map(\.id)
            #expect(again == ids, "stable across calls")
            #expect(otherCase == ids, "one account name, one answer, as for real names")
            #expect(otherName != ids, "another name, other decoys")

            let conformance = try await server.app().send(
                .post, APIPaths.Conformance.assertionOptions, json: ServerRequestOptionsRequest(username: "nobody")
            )
            #expect(conformance.status == .ok, "\(conformance)")
            #expect(
                try conformance.decode(ServerRequestOptionsResponse.self).options.allowCredentials?.map(\.id) == ids)
        }
    }

    @Test func decoysLookLikeRealCredentialsAndEveryInstanceAgrees() async throws {
        try await TestDatabase.with(.sqlite) { database in try await checkDecoys(on: database) }
    }

    private func checkDecoys(on database: TestDatabase) async throws {
        let first: [String: [PublicKeyCredentialDescriptor]] = try await withServer(on: database) { server throws in
            var decoys: [String: [PublicKeyCredentialDescriptor]] = [:]
            for index in 0..<200 {
                let reply = try await options(server.app(), "user\(index)")
                decoys["user\(index)"] = try allowed(reply)
            }
            return decoys
        }
        let counts = Set(first.values.map(\.count))
        let lengths = Set(first.values.flatMap { $0.map(\.id.bytes.count) })
        #expect(counts.isSubset(of: [1, 2, 3]) && counts.contains(1) && counts.contains(2))
        #expect(lengths.isSubset(of: [16, 20, 32, 64]) && lengths.count >= 3)
        #expect(first.values.allSatisfy { $0.allSatisfy { $0.transports?.isEmpty == false } })
        // Another instance on the same database (or this one restarted) gives the same decoys.
        try await withServer(on: database) { server throws in
            let reply = try await options(server.app(), "user7")
            #expect(try allowed(reply) == first["user7"])
        }
    }

    @Test(arguments: Backend.available)
    func aDecoySignInFailsAsAnotherAccountsPasskeyDoes(_ backend: Backend) async throws {
        try await withServer(backend) { server throws in
            let bobsPhone = VirtualAuthenticator()
            _ = try await NativeClient(http: server.app()).signUp("alice", with: VirtualAuthenticator())
            _ = try await NativeClient(http: server.app()).signUp("bob", with: bobsPhone)

            /// Begins a sign-in for `name`, answers it with Bob's passkey whatever the options allow, and verifies.
            func signInWithBobsPasskey(as name: String) async throws -> Reply {
                let app = server.app()
                let begun: AuthenticationOptionsResponse = try await options(app, name).decode()
                var options = begun.options
                options.allowCredentials = nil
                let assertion = try await bobsPhone.authenticate(options: options, origin: ServerHarness.origin)
                return try await app.send(
                    .post, APIPaths.Native.authenticationVerify,
                    json: AuthenticationVerifyRequest(ticket: begun.ticket, credential: assertion)
                )
            }
            let real = try await signInWithBobsPasskey(as: "alice")
            let decoy = try await signInWithBobsPasskey(as: "nobody")
            #expect(real.errorCode == WebAuthnError.Code.credentialNotAllowed.rawValue, "\(real)")
            #expect(decoy.status == real.status)
            #expect(decoy.text == real.text, "the same answer, word for word")
        }
    }

    /// The review's finding 7: a per-name limit on sign-in options let anyone stop a user's username sign-in from many
    /// addresses. Options are now limited per address only.
    @Test func manyAddressesAskingForOneNameDoNotStopItsSignIn() async throws {
        var settings = ServerSettings.test
        settings.rateLimit = 5
        settings.trustedProxies = ["127.0.0.0/8", "::1/128"]
        try await withServer(.sqlite, settings: settings) { server throws in
            let phone = VirtualAuthenticator()
            _ = try await NativeClient(http: server.app()).signUp("alice", with: phone)
            for attempt in 1...10 {
                let reply = try await server.app().send(
                    .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: "alice"),
                    headers: [.forwardedForTests: "203.0.113.\(attempt)"]
                )
                #expect(reply.status == .ok, "\(attempt): \(reply)")
            }
            let signIn = try await NativeClient(http: server.app()).signIn("alice", with: phone)
            #expect(signIn.status == .ok, "\(signIn)")
        }
    }

    /// The review's finding 4: a password-only account's options had no `allowCredentials` where an unknown name gets
    /// made-up ones. Now both get made-up ones, alike in shape.
    @Test func anAccountWithoutAPasskeyGetsDecoysLikeAnUnknownName() async throws {
        try await withServer(.sqlite) { server throws in
            let app = server.app()
            #expect(try await app.passwordRegister("carol", "a long enough password for carol").status == .created)
            func options(_ name: String) async throws -> [Base64URLBytes] {
                let reply = try await app.send(
                    .post, APIPaths.Native.authenticationOptions, json: AuthenticationOptionsRequest(username: name))
                return try allowed(reply).map(\.id)
            }
            let carol = try await options("carol")
            #expect(!carol.isEmpty, "made-up credentials, as for a name no account has")
            #expect(try await options("carol") == carol, "the same on every call")
            #expect(!(try await options("nobody")).isEmpty)
        }
    }
}

extension HTTPField.Name {
    static let forwardedForTests = HTTPField.Name("X-Forwarded-For")!
}
