import Foundation
import LatchkeyAPI
import LatchkeyClient
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// The client half of keeping password managers in step and of the automatic passkey upgrade, against the real
/// server over real HTTP: the signals each answer carries reach the client's sink, a sign-in refused with
/// `credential.notFound` signals the unknown credential, and a password sign-in's `passkeyUpgrade` is finished with
/// a conditional create (no user presence) that only that ceremony accepts.
@Suite("Signals and the passkey upgrade: NativeClient against the real server")
struct SignalsAndUpgradeClientTests {
    actor SignalLog {
        private(set) var received: [PasskeySignal] = []
        func append(_ signals: [PasskeySignal]) { received += signals }
        func take() -> [PasskeySignal] {
            defer { received = [] }
            return received
        }
    }

    /// An authenticator that records whether the conditional path was taken.
    struct Recording: Authenticator {
        let inner: VirtualAuthenticatorAdapter
        let conditional: SignalLog

        func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
            -> RegistrationCredential
        {
            try await inner.register(options: options)
        }

        func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError)
            -> AuthenticationCredential
        {
            try await inner.authenticate(options: options)
        }

        func registerConditionally(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
            -> RegistrationCredential
        {
            let credential = try await inner.registerConditionally(options: options)
            await conditional.append([
                .unknownCredential(relyingPartyIdentifier: "conditional", credentialID: Data(credential.rawId.bytes))
            ])
            return credential
        }
    }

    /// Whether the UP flag is set in a registration's authenticator data (byte 32 of `authData`).
    static func userPresent(_ credential: RegistrationCredential) throws -> Bool {
        let object = try AttestationObject(bytes: credential.response.attestationObject.bytes)
        return object.authenticatorData.flags.userPresent
    }

    @Test(arguments: Backend.available)
    func signalsReachTheSink(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let log = SignalLog()
            let app = NativeClient(
                server: server.url, transport: URLSessionTransport(), signals: { await log.append($0) })
            let phone = LiveServer.passkeyProvider()
            let signedUp = try await app.signUp(username: "alice", displayName: "Alice", with: phone)
            let first = Data(signedUp.credential.rawId.bytes)
            guard case .allAcceptedCredentials("localhost", let handle, [first]) = try #require(await log.take().first)
            else {
                Issue.record("sign-up did not signal the accepted credentials")
                return
            }
            #expect(!handle.isEmpty)

            let key = LiveServer.passkeyProvider()
            try await app.addPasskey(name: "Key", with: key)
            let listed = try await app.passkeys()
            let signals = await log.take()
            #expect(
                signals.count == 2
                    && signals.last
                        == .currentUserDetails(
                            relyingPartyIdentifier: "localhost", userHandle: handle, name: "alice", displayName: "Alice"
                        )
            )
            guard case .allAcceptedCredentials(_, _, let accepted) = signals.first else {
                Issue.record("no list signal")
                return
            }
            #expect(
                Set(accepted) == Set(listed.compactMap { Base64URL.decode($0.id).map { Data($0) } })
                    && accepted.count == 2)

            // A rename answers with the accepted credentials and names too.
            try await app.renamePasskey(id: listed[0].id, to: "Phone")
            #expect(
                await log.take().last
                    == .currentUserDetails(
                        relyingPartyIdentifier: "localhost", userHandle: handle, name: "alice", displayName: "Alice"
                    ))

            // The phone's passkey is removed on the server: the answer lists what is left ...
            let phoneSummary = try #require(listed.first { Base64URL.decode($0.id).map { Data($0) } == first })
            try await app.deletePasskey(id: phoneSummary.id)
            guard case .allAcceptedCredentials(_, _, let left) = try #require(await log.take().first) else {
                Issue.record("no removal signal")
                return
            }
            #expect(left.count == 1 && !left.contains(first))

            // ... and signing in with it again is refused, which tells the phone's password manager to drop it.
            let refusal = await #expect(throws: LatchkeyClientError.self) { try await app.signIn(with: phone) }
            #expect(refusal?.code == "credential.notFound")
            #expect(await log.take() == [.unknownCredential(relyingPartyIdentifier: "localhost", credentialID: first)])
        }
    }

    @Test(arguments: Backend.available)
    func passwordSignInUpgradesWithAConditionalCreate(_ backend: Backend) async throws {
        try await LiveServer.run(backend) { server in
            let password = "a long enough passphrase for one"
            let app = server.native()
            let registered = try await app.passwordRegister(
                PasswordRegisterRequest(username: "bob", displayName: "Bob", password: password))
            #expect(registered.passkeyUpgrade != nil, "an account without a passkey is offered the upgrade")

            // An authenticator without conditional create: the app offers "Add a passkey" instead; nothing is stored.
            let plain = server.native()
            let signedIn = try await plain.passwordSignIn(PasswordSignInRequest(username: "bob", password: password))
            let upgrade = try #require(signedIn.passkeyUpgrade)
            struct NoConditional: Authenticator {
                let inner: VirtualAuthenticatorAdapter
                func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
                    -> RegistrationCredential
                {
                    try await inner.register(options: options)
                }
                func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError)
                    -> AuthenticationCredential
                {
                    try await inner.authenticate(options: options)
                }
            }
            let unsupported = await #expect(throws: LatchkeyClientError.self) {
                try await plain.completePasskeyUpgrade(
                    upgrade, with: NoConditional(inner: LiveServer.passkeyProvider()))
            }
            #expect(unsupported?.code == "authenticator.unsupported")
            #expect(try await plain.passkeys().isEmpty)

            // The password manager's conditional create: no user presence, accepted by this ceremony only.
            let log = SignalLog()
            let manager = Recording(inner: LiveServer.passkeyProvider(), conditional: log)
            let again = try await app.passwordSignIn(PasswordSignInRequest(username: "bob", password: password))
            let added = try await app.completePasskeyUpgrade(try #require(again.passkeyUpgrade), with: manager)
            #expect(await log.take().count == 1, "the conditional path was taken")
            #expect(try await app.passkeys().map(\.id) == [added.id])
            #expect(try await app.signIn(username: "bob", with: manager.inner).session.user.name == "bob")

            // The same kind of credential (UP clear) under a normal add-passkey ceremony is refused.
            let started = try await app.addPasskeyOptions(AddPasskeyOptionsRequest(name: nil))
            let withoutPresence = try await LiveServer.passkeyProvider().registerConditionally(options: started.options)
            #expect(try !Self.userPresent(withoutPresence))
            let refused = await #expect(throws: LatchkeyClientError.self) {
                try await app.addPasskeyVerify(
                    RegistrationVerifyRequest(ticket: started.ticket, credential: withoutPresence))
            }
            #expect(refused?.code == "userPresenceRequired")
        }
    }
}
