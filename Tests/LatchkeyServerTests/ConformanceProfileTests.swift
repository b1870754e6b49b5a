import Foundation
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator
import WebAuthn

/// The FIDO conformance profile: full ceremonies, what the options echo, and a negative test for each failure the
/// conformance tools check, on each database.
@Suite("Conformance profile")
struct ConformanceProfileTests {
    @Test(arguments: Backend.available)
    func registerThenLogInWithAndWithoutUsername(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator(configuration: .passkeyProvider)
            let client = ConformanceClient(http: server.browser())
            let registered = try await client.register("johndoe@example.com", with: authenticator)
            #expect(registered.status == .ok, "\(registered)")
            #expect(registered.serverResponse == ServerResponse.ok)
            #expect(await client.http.cookies["latchkey_session"] != nil, "a sign-up signs in")
            #expect(await client.http.cookies["latchkey_ceremony"] == nil, "the ceremony cookie is cleared")

            let fresh = ConformanceClient(http: server.browser())
            let login = try await fresh.login("johndoe@example.com", with: authenticator)
            #expect(login.status == .ok, "\(login)")
            #expect(login.serverResponse?.status == .ok)
            #expect(try await fresh.login(nil, with: authenticator).serverResponse?.status == .ok)
            #expect(try await fresh.login("", with: authenticator).serverResponse?.status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func optionsEchoTheRequestAndListTheUsersCredentials(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            let browser = server.browser()
            let client = ConformanceClient(http: browser)
            #expect(try await client.register("johndoe", with: authenticator).status == .ok)

            let selection = AuthenticatorSelectionCriteria(
                authenticatorAttachment: .crossPlatform, requireResidentKey: false, userVerification: .preferred)
            let request = ServerCreationOptionsRequest(
                username: "johndoe", displayName: "John Doe", authenticatorSelection: selection, attestation: .direct,
                extensions: ["example.extension": .bool(true)]
            )
            let reply = try await browser.send(.post, APIPaths.Conformance.attestationOptions, json: request)
            #expect(reply.status == .ok, "\(reply)")
            let options: ServerCreationOptionsResponse = try reply.decode()
            #expect(options.status == .ok && options.errorMessage.isEmpty)
            #expect(options.attestation == .direct)
            #expect(options.authenticatorSelection.authenticatorAttachment == .crossPlatform)
            #expect(options.authenticatorSelection.requireResidentKey == false)
            #expect(options.authenticatorSelection.userVerification == .preferred)
            #expect(options.extensions?["example.extension"] == .bool(true))
            #expect(options.excludeCredentials.count == 1, "the signed-in user's credential is excluded")
            #expect(!options.pubKeyCredParams.contains { $0.alg == .rs1 }, "RS1 is off by default")
            #expect(options.user.name == "johndoe" && options.user.displayName == "johndoe")
            #expect(options.challenge.bytes.count == 32)

            let assertion: ServerRequestOptionsResponse = try await browser.send(
                .post, APIPaths.Conformance.assertionOptions,
                json: ServerRequestOptionsRequest(
                    username: "johndoe", userVerification: .required, extensions: ["example.extension": .bool(true)])
            ).decode()
            #expect(assertion.allowCredentials.count == 1)
            #expect(assertion.userVerification == .required)
            #expect(assertion.rpId == "localhost")
            #expect(assertion.extensions?["example.extension"] == .bool(true))
        }
    }

    @Test(arguments: Backend.available)
    func aTakenUsernameNeedsThatAccountsSession(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            #expect(
                try await ConformanceClient(http: server.browser()).register("johndoe", with: VirtualAuthenticator())
                    .status == .ok)
            let attacker = try await server.browser().send(
                .post, APIPaths.Conformance.attestationOptions,
                json: ServerCreationOptionsRequest(username: "johndoe", displayName: "x"))
            #expect(attacker.status == .conflict)
            #expect(attacker.serverResponse?.status == .failed)
            #expect(attacker.serverResponse?.errorCode == "user.nameTaken")
        }
    }

    @Test(
        "adding a passkey through the conformance API needs that account's session at the result",
        arguments: Backend.available)
    func addingAPasskeyNeedsTheSessionAtTheResult(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let browser = server.browser()
            let conformance = ConformanceClient(http: browser)
            #expect(try await conformance.register("johndoe", with: VirtualAuthenticator()).status == .ok)
            let johnsSession = try #require(await browser.cookies["latchkey_session"])
            let other = server.browser()
            #expect(
                try await ConformanceClient(http: other).register("mallory", with: VirtualAuthenticator()).status == .ok
            )
            let mallorysSession = try #require(await other.cookies["latchkey_session"])
            let john = try #require(try await server.store.user(named: "johndoe"))

            /// Begins adding a passkey as John, then presents `session` (nil: none) at the result.
            func addPasskey(presenting session: String?) async throws -> Reply {
                await browser.setCookie("latchkey_session", johnsSession)
                let options = try await browser.send(
                    .post, APIPaths.Conformance.attestationOptions,
                    json: ServerCreationOptionsRequest(username: "johndoe", displayName: "John")
                )
                #expect(options.status == .ok, "\(options)")
                let creation: ServerCreationOptionsResponse = try options.decode()
                let credential = try await VirtualAuthenticator().register(
                    options: creation.options, origin: ServerHarness.origin)
                await browser.setCookie("latchkey_session", session)
                return try await browser.send(.post, APIPaths.Conformance.attestationResult, json: credential)
            }

            let anonymous = try await addPasskey(presenting: nil)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.serverResponse?.errorCode == "session.required", "\(anonymous)")
            let wrongUser = try await addPasskey(presenting: mallorysSession)
            #expect(wrongUser.status == .forbidden)
            #expect(wrongUser.serverResponse?.errorCode == "session.wrongUser", "\(wrongUser)")
            #expect(try await server.store.credentialCount(ofUser: john.id) == 1)

            let added = try await addPasskey(presenting: johnsSession)
            #expect(added.status == .ok, "\(added)")
            #expect(try await server.store.credentialCount(ofUser: john.id) == 2)
        }
    }

    @Test(arguments: Backend.available)
    func requiredUserVerificationIsEnforced(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            #expect(
                try await ConformanceClient(http: server.browser()).register("uv", with: authenticator).status == .ok)
            let reply = try await ConformanceClient(http: server.browser())
                .login(
                    "uv", with: authenticator, userVerification: .required,
                    tampering: Tampering(clearUserVerification: true))
            try expectFailure(reply, code: .userVerificationRequired)
        }
    }

    // MARK: Failures

    /// A registration failure: 4xx, `status: failed`, a message, the code, and no user created.
    private func expectRegistrationFailure(
        _ code: String, tampering: Tampering = .none, attestation: AttestationConveyancePreference? = nil,
        authenticator: VirtualAuthenticator = VirtualAuthenticator(),
        edit: @escaping @Sendable (inout [String: Any]) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for backend in Backend.available {
            try await withServer(backend) { server in
                let client = ConformanceClient(http: server.browser())
                let request = ServerCreationOptionsRequest(
                    username: "mallory", displayName: "Mallory", attestation: attestation)
                let reply = try await client.register(request, with: authenticator, tampering: tampering, edit: edit)
                try expectFailure(reply, code: code, sourceLocation: sourceLocation)
                #expect(try await server.store.user(named: "mallory") == nil, sourceLocation: sourceLocation)
                #expect(await client.http.cookies["latchkey_session"] == nil, sourceLocation: sourceLocation)
            }
        }
    }

    /// An authentication failure after a good registration: 4xx, `status: failed`, a message, the code, and the
    /// stored credential unchanged.
    private func expectAuthenticationFailure(
        _ code: String, tampering: Tampering = .none, signInFirst: Bool = false,
        edit: @escaping @Sendable (inout [String: Any]) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for backend in Backend.available {
            try await withServer(backend) { server in
                let authenticator = VirtualAuthenticator()
                #expect(
                    try await ConformanceClient(http: server.browser()).register("alice", with: authenticator).status
                        == .ok)
                if signInFirst {
                    #expect(
                        try await ConformanceClient(http: server.browser()).login("alice", with: authenticator).status
                            == .ok)
                }
                let user = try #require(try await server.store.user(named: "alice"))
                let before = try await server.store.credentials(ofUser: user.id)

                let client = ConformanceClient(http: server.browser())
                let reply = try await client.login("alice", with: authenticator, tampering: tampering, edit: edit)
                try expectFailure(reply, code: code, sourceLocation: sourceLocation)
                #expect(
                    try await server.store.credentials(ofUser: user.id) == before, "nothing changed",
                    sourceLocation: sourceLocation)
                #expect(await client.http.cookies["latchkey_session"] == nil, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func registrationWithTheWrongChallengeFails() async throws {
        try await expectRegistrationFailure(
            WebAuthnError.Code.challengeMismatch.rawValue,
            tampering: Tampering(challenge: Array(repeating: 7, count: 32)))
    }

    @Test func registrationFromTheWrongOriginFails() async throws {
        try await expectRegistrationFailure(
            WebAuthnError.Code.originNotAllowed.rawValue, tampering: Tampering(origin: "https://evil.example"))
    }

    @Test func registrationWithTheWrongTypeFails() async throws {
        try await expectRegistrationFailure(
            WebAuthnError.Code.typeMismatch.rawValue, tampering: Tampering(clientDataType: "webauthn.get"))
    }

    @Test func registrationWithTheWrongRPIDHashFails() async throws {
        try await expectRegistrationFailure(
            WebAuthnError.Code.rpIdHashMismatch.rawValue, tampering: Tampering(rpID: "evil.example"))
    }

    @Test func registrationWithABadAttestationSignatureFails() async throws {
        try await expectRegistrationFailure(
            WebAuthnError.Code.attestation("packed", "badSignature").rawValue,
            tampering: Tampering(corruptSignature: true),
            attestation: .direct,
            authenticator: VirtualAuthenticator(
                configuration: VirtualAuthenticatorConfiguration(attestation: .packedSelf))
        )
    }

    @Test func registrationWithMalformedCBORFails() async throws {
        try await expectRegistrationFailure(WebAuthnError.Code.attestationObjectMalformed.rawValue) { json in
            var response = json["response"] as? [String: Any] ?? [:]
            response["attestationObject"] = Base64URL.encode([0xa3, 0x63, 0x66, 0x6d])
            json["response"] = response
        }
    }

    @Test func registrationWithMissingFieldsFails() async throws {
        try await expectRegistrationFailure(WebAuthnError.Code.malformedCredential.rawValue) { json in
            var response = json["response"] as? [String: Any] ?? [:]
            response["attestationObject"] = nil
            json["response"] = response
        }
    }

    @Test(arguments: Backend.available)
    func aReplayedRegistrationFails(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let browser = server.browser()
            let authenticator = VirtualAuthenticator()
            let options: ServerCreationOptionsResponse = try await browser.send(
                .post, APIPaths.Conformance.attestationOptions,
                json: ServerCreationOptionsRequest(username: "replay", displayName: "Replay")
            ).decode()
            let ceremony = try #require(await browser.cookies["latchkey_ceremony"])
            let credential = try await authenticator.register(options: options.options, origin: ServerHarness.origin)
            #expect(
                try await browser.send(.post, APIPaths.Conformance.attestationResult, json: credential).status == .ok)
            await browser.setCookie("latchkey_ceremony", ceremony)
            let replay = try await browser.send(.post, APIPaths.Conformance.attestationResult, json: credential)
            try expectFailure(replay, code: "ceremony.notFound")
            #expect(
                try await server.store.credentialCount(
                    ofUser: try #require(try await server.store.user(named: "replay")).id) == 1)
        }
    }

    @Test func authenticationWithTheWrongChallengeFails() async throws {
        try await expectAuthenticationFailure(
            WebAuthnError.Code.challengeMismatch.rawValue,
            tampering: Tampering(challenge: Array(repeating: 9, count: 32)))
    }

    @Test func authenticationFromTheWrongOriginFails() async throws {
        try await expectAuthenticationFailure(
            WebAuthnError.Code.originNotAllowed.rawValue, tampering: Tampering(origin: "http://localhost:9999"))
    }

    @Test func authenticationWithTheWrongTypeFails() async throws {
        try await expectAuthenticationFailure(
            WebAuthnError.Code.typeMismatch.rawValue, tampering: Tampering(clientDataType: "webauthn.create"))
    }

    @Test func authenticationWithTheWrongRPIDHashFails() async throws {
        try await expectAuthenticationFailure(
            WebAuthnError.Code.rpIdHashMismatch.rawValue, tampering: Tampering(rpID: "example.org"))
    }

    @Test func authenticationWithABadSignatureFails() async throws {
        try await expectAuthenticationFailure(
            WebAuthnError.Code.badSignature.rawValue, tampering: Tampering(corruptSignature: true))
    }

    @Test func authenticationWithACounterThatDidNotIncreaseFails() async throws {
        try await expectAuthenticationFailure(
            WebAuthnError.Code.signCountRegression.rawValue, tampering: Tampering(signCount: 1), signInFirst: true)
    }

    @Test func authenticationWithAnUnknownCredentialFails() async throws {
        try await expectAuthenticationFailure("credential.notFound") { json in
            let id = Base64URL.encode([UInt8](repeating: 0x42, count: 32))
            json["id"] = id
            json["rawId"] = id
        }
    }

    @Test func authenticationWithMalformedAuthenticatorDataFails() async throws {
        try await expectAuthenticationFailure(WebAuthnError.Code.authenticatorDataMalformed.rawValue) { json in
            var response = json["response"] as? [String: Any] ?? [:]
            response["authenticatorData"] = Base64URL.encode([1, 2, 3])
            json["response"] = response
        }
    }

    @Test func authenticationWithMissingFieldsFails() async throws {
        try await expectAuthenticationFailure(WebAuthnError.Code.malformedCredential.rawValue) { json in
            var response = json["response"] as? [String: Any] ?? [:]
            response["signature"] = nil
            json["response"] = response
        }
    }

    @Test(arguments: Backend.available)
    func aReplayedAuthenticationFails(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let authenticator = VirtualAuthenticator()
            #expect(
                try await ConformanceClient(http: server.browser()).register("alice", with: authenticator).status == .ok
            )
            let browser = server.browser()
            let options: ServerRequestOptionsResponse = try await browser.send(
                .post, APIPaths.Conformance.assertionOptions, json: ServerRequestOptionsRequest(username: "alice")
            ).decode()
            let ceremony = try #require(await browser.cookies["latchkey_ceremony"])
            let credential = try await authenticator.authenticate(
                options: options.options, origin: ServerHarness.origin)
            #expect(try await browser.send(.post, APIPaths.Conformance.assertionResult, json: credential).status == .ok)
            let user = try #require(try await server.store.user(named: "alice"))
            let before = try await server.store.credentials(ofUser: user.id)
            await browser.setCookie("latchkey_ceremony", ceremony)
            try expectFailure(
                try await browser.send(.post, APIPaths.Conformance.assertionResult, json: credential),
                code: "ceremony.notFound")
            #expect(try await server.store.credentials(ofUser: user.id) == before)
        }
    }

    @Test(arguments: Backend.available)
    func aResultWithoutTheCeremonyCookieFails(_ backend: Backend) async throws {
        try await withServer(backend) { server in
            let reply = try await server.browser().send(.post, APIPaths.Conformance.assertionResult, text: "{}")
            try expectFailure(reply, code: "ceremony.cookieMissing")
        }
    }
}

/// Expects a conformance failure: 4xx, `status: failed`, a non-empty message, and `code`.
func expectFailure(_ reply: Reply, code: WebAuthnError.Code, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try expectFailure(reply, code: code.rawValue, sourceLocation: sourceLocation)
}

/// Expects a conformance failure: 4xx, `status: failed`, a non-empty message, and `code`.
func expectFailure(_ reply: Reply, code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect((400..<500).contains(reply.status.code), "\(reply)", sourceLocation: sourceLocation)
    let body = try #require(reply.serverResponse, "\(reply)", sourceLocation: sourceLocation)
    #expect(body.status == .failed, sourceLocation: sourceLocation)
    #expect(!body.errorMessage.isEmpty, sourceLocation: sourceLocation)
    #expect(body.errorCode == code, "\(reply)", sourceLocation: sourceLocation)
}
