import Crypto
import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// What the authenticator (and the client in front of it) decides on its own: which algorithm, which
/// credential, which flags, and when to refuse.
@Suite("Authenticator behaviour")
struct AuthenticatorBehaviorTests {
    // MARK: Algorithms

    @Test("takes the first requested algorithm it supports")
    func firstSupportedAlgorithm() async throws {
        let harness = Harness()
        let options = harness.creationOptions(algorithms: [.mlDSA44, .ed448, .ps384, .es256])
        let credential = try await harness.create(options)
        #expect(credential.response.publicKeyAlgorithm == COSEAlgorithm.ps384.rawValue)
    }

    @Test("empty pubKeyCredParams means ES256")
    func emptyParametersMeanES256() async throws {
        let harness = Harness()
        let options = harness.creationOptions(algorithms: [])
        let credential = try await harness.create(options)
        #expect(credential.response.publicKeyAlgorithm == COSEAlgorithm.es256.rawValue)
    }

    @Test("only algorithms it cannot sign with → unsupportedAlgorithm")
    func unsupportedAlgorithm() async throws {
        let harness = Harness()
        let options = harness.creationOptions(algorithms: [.mlDSA44, .ed448])
        await #expect(throws: VirtualAuthenticatorError.unsupportedAlgorithm(requested: [.mlDSA44, .ed448])) {
            try await harness.create(options)
        }
    }

    @Test("configured to fewer algorithms, it skips the others")
    func configuredAlgorithms() async throws {
        let harness = Harness(.testing { $0.algorithms = [.edDSA] })
        let options = harness.creationOptions(algorithms: [.es256, .edDSA])
        let credential = try await harness.create(options)
        #expect(credential.response.publicKeyAlgorithm == COSEAlgorithm.edDSA.rawValue)
    }

    @Test("fido-u2f makes only P-256 keys")
    func u2fNeedsES256() async throws {
        let harness = Harness(.testing(attestation: .fidoU2F(try TestCA.root.get())))
        await #expect(throws: VirtualAuthenticatorError.unsupportedAlgorithm(requested: [.rs256, .edDSA])) {
            try await harness.authenticator.register(
                options: harness.creationOptions(algorithms: [.rs256, .edDSA]), origin: harness.origin)
        }
        let credential = try await harness.authenticator.register(
            options: harness.creationOptions(algorithms: [.rs256, .es256]), origin: harness.origin
        )
        #expect(credential.response.publicKeyAlgorithm == COSEAlgorithm.es256.rawValue)
    }

    // MARK: Exclude and allow lists

    @Test("excludeCredentials naming a credential it holds → excludedCredentialExists")
    func excludeCredentials() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        let options = harness.creationOptions(excludeCredentials: [PublicKeyCredentialDescriptor(id: record.id)])
        await #expect(throws: VirtualAuthenticatorError.excludedCredentialExists(credentialID: record.id)) {
            try await harness.create(options)
        }
    }

    @Test("excludeCredentials naming unknown credentials does not block registration")
    func excludeUnknown() async throws {
        let harness = Harness()
        let options = harness.creationOptions(excludeCredentials: [PublicKeyCredentialDescriptor(id: [1, 2, 3])])
        _ = try await harness.create(options)
    }

    @Test("allowCredentials naming none of its credentials → noMatchingCredential")
    func allowCredentialsMiss() async throws {
        let harness = Harness()
        _ = try await harness.registeredRecord()
        let stranger = CredentialRecord(id: [9, 9, 9], publicKey: [], signCount: 0)
        await #expect(throws: VirtualAuthenticatorError.noMatchingCredential(rpID: Harness.rpID)) {
            try await harness.authenticator.authenticate(
                options: harness.requestOptions(allowing: [stranger]), origin: harness.origin)
        }
    }

    @Test("allowCredentials picks the listed credential, even a non-discoverable one")
    func allowCredentialsHit() async throws {
        let harness = Harness()
        let first = try await harness.registeredRecord(residentKey: .discouraged)
        _ = try await harness.registeredRecord(user: Harness.bob)
        let authentication = try await harness.signIn(first)
        #expect(authentication.credentialID == first.id)
        #expect(authentication.userHandle == nil)
    }

    @Test("credentials of another RP ID are never used")
    func otherRPID() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        var options = harness.requestOptions(allowing: [record])
        options.rpId = "other.example"
        await #expect(throws: VirtualAuthenticatorError.noMatchingCredential(rpID: "other.example")) {
            try await harness.authenticator.authenticate(options: options, origin: "https://other.example")
        }
    }

    // MARK: Username-less sign-in

    @Test("username-less: the most recent discoverable credential by default, or the one chosen")
    func usernameless() async throws {
        let harness = Harness()
        let alice = try await harness.registeredRecord(user: Harness.alice)
        let bob = try await harness.registeredRecord(user: Harness.bob)
        _ = try await harness.registeredRecord(
            user: UserEntity(id: [7], name: "carol", displayName: "Carol"), residentKey: .discouraged)
        let options = harness.requestOptions()

        let byDefault = try await harness.authenticator.authenticate(options: options, origin: harness.origin)
        #expect(byDefault.rawId.bytes == bob.id)
        #expect(byDefault.response.userHandle?.bytes == Harness.bob.id.bytes)
        #expect(
            try harness.finishAuthentication(byDefault, options: options, record: bob).userHandle
                == Harness.bob.id.bytes)

        for choice in [
            CredentialChoice.userHandle(Harness.alice.id.bytes), .userName(Harness.alice.name), .credentialID(alice.id),
        ] {
            let chosen = try await harness.authenticator.authenticate(
                options: harness.requestOptions(), origin: harness.origin, choice: choice)
            #expect(chosen.rawId.bytes == alice.id)
        }
    }

    @Test("username-less: the account chooser sees only discoverable credentials of the RP, and can cancel")
    func accountChooser() async throws {
        let harness = Harness()
        let alice = try await harness.registeredRecord(user: Harness.alice)
        _ = try await harness.registeredRecord(user: Harness.bob)
        _ = try await harness.registeredRecord(
            user: UserEntity(id: [7], name: "carol", displayName: "Carol"), residentKey: .discouraged)

        let chosen = try await harness.authenticator.authenticate(
            options: harness.requestOptions(), origin: harness.origin,
            choice: .ask { candidates in
                candidates.map(\.userName) == [Harness.alice.name, Harness.bob.name] ? candidates.first : nil
            }
        )
        #expect(chosen.rawId.bytes == alice.id)

        await #expect(throws: VirtualAuthenticatorError.selectionCancelled) {
            try await harness.authenticator.authenticate(
                options: harness.requestOptions(), origin: harness.origin, choice: .ask { _ in nil })
        }
    }

    @Test("username-less with no discoverable credential → noMatchingCredential")
    func usernamelessWithoutDiscoverable() async throws {
        let harness = Harness()
        _ = try await harness.registeredRecord(residentKey: .discouraged)
        await #expect(throws: VirtualAuthenticatorError.noMatchingCredential(rpID: Harness.rpID)) {
            try await harness.authenticator.authenticate(options: harness.requestOptions(), origin: harness.origin)
        }
    }

    @Test("a choice matching no candidate → noMatchingCredential")
    func choiceMatchesNothing() async throws {
        let harness = Harness()
        _ = try await harness.registeredRecord()
        await #expect(throws: VirtualAuthenticatorError.noMatchingCredential(rpID: Harness.rpID)) {
            try await harness.authenticator.authenticate(
                options: harness.requestOptions(), origin: harness.origin, choice: .userName("mallory"))
        }
    }

    // MARK: Discoverable credentials and credProps

    @Test(
        "residentKey and the configured support decide discoverability; credProps reports it",
        arguments: [
            (
                VirtualAuthenticatorConfiguration.DiscoverableCredentials.whenRequestedOrPreferred,
                ResidentKeyRequirement.required, true
            ),
            (.whenRequestedOrPreferred, .preferred, true),
            (.whenRequestedOrPreferred, .discouraged, false),
            (.unsupported, .preferred, false),
            (.always, .discouraged, true),
        ])
    func discoverability(
        support: VirtualAuthenticatorConfiguration.DiscoverableCredentials, requirement: ResidentKeyRequirement,
        expected: Bool
    ) async throws {
        let harness = Harness(.testing { $0.discoverableCredentials = support })
        let options = harness.creationOptions(residentKey: requirement)
        let credential = try await harness.create(options)
        #expect(credential.clientExtensionResults["credProps"]?["rk"]?.boolValue == expected)
        #expect(try await harness.finishRegistration(credential, options: options).isDiscoverable == expected)
        let stored = try await harness.authenticator.store.credential(id: credential.rawId.bytes)
        #expect(stored?.isDiscoverable == expected)
    }

    @Test("residentKey required without resident-key support → residentKeyUnavailable")
    func residentKeyUnavailable() async throws {
        let harness = Harness(.testing { $0.discoverableCredentials = .unsupported })
        await #expect(throws: VirtualAuthenticatorError.residentKeyUnavailable) {
            try await harness.create(harness.creationOptions(residentKey: .required))
        }
    }

    @Test("no credProps output unless the RP asked for it")
    func credPropsOnlyWhenAsked() async throws {
        let harness = Harness()
        var options = harness.creationOptions()
        options.extensions = nil
        let credential = try await harness.create(options)
        #expect(credential.clientExtensionResults.isEmpty)
        #expect(try await harness.finishRegistration(credential, options: options).isDiscoverable == nil)
    }

    // MARK: User verification and flags

    @Test(
        "UV follows the requirement and the authenticator's ability",
        arguments: [
            (true, UserVerificationRequirement.required, true), (true, .preferred, true), (true, .discouraged, false),
            (false, .preferred, false), (false, .discouraged, false),
        ])
    func userVerification(supported: Bool, requirement: UserVerificationRequirement, expected: Bool) async throws {
        let harness = Harness(.testing { $0.supportsUserVerification = supported })
        let options = harness.creationOptions(userVerification: requirement)
        let credential = try await harness.create(options)
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(registration.userVerified == expected)

        let record = Harness.record(registration)
        let requestOptions = harness.requestOptions(allowing: [record], userVerification: requirement)
        let assertion = try await harness.authenticator.authenticate(options: requestOptions, origin: harness.origin)
        #expect(
            try harness.finishAuthentication(assertion, options: requestOptions, record: record).userVerified
                == expected)
    }

    @Test("UV required without the ability → userVerificationUnavailable, in both ceremonies")
    func userVerificationUnavailable() async throws {
        let capable = Harness()
        let record = try await capable.registeredRecord()
        let incapable = Harness(.testing { $0.supportsUserVerification = false }, store: capable.authenticator.store)
        await #expect(throws: VirtualAuthenticatorError.userVerificationUnavailable) {
            try await incapable.authenticator.register(
                options: incapable.creationOptions(userVerification: .required), origin: incapable.origin)
        }
        await #expect(throws: VirtualAuthenticatorError.userVerificationUnavailable) {
            try await incapable.authenticator.authenticate(
                options: incapable.requestOptions(allowing: [record], userVerification: .required),
                origin: incapable.origin
            )
        }
    }

    @Test("BE without BS: eligible but not yet backed up")
    func eligibleNotBackedUp() async throws {
        let harness = Harness(.testing { $0.backupEligible = true })
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(registration.backupEligible && !registration.backedUp)
    }

    @Test("BS is never set without BE from configuration alone")
    func backedUpNeedsEligibility() async throws {
        let harness = Harness(.testing { $0.backedUp = true })
        let options = harness.creationOptions()
        let credential = try await harness.create(options)
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(!registration.backupEligible && !registration.backedUp)
    }

    // MARK: Counters

    @Test("each credential has its own counter, advanced once per assertion")
    func perCredentialCounter() async throws {
        let harness = Harness()
        var alice = try await harness.registeredRecord(user: Harness.alice)
        let bob = try await harness.registeredRecord(user: Harness.bob)
        for expected in UInt32(1)...3 {
            let authentication = try await harness.signIn(alice)
            #expect(authentication.newSignCount == expected)
            alice.signCount = authentication.newSignCount
        }
        #expect(try await harness.signIn(bob).newSignCount == 1)
        #expect(try await harness.authenticator.store.credential(id: alice.id)?.signCount == 3)
    }

    @Test("a forced counter goes into authenticator data, not into the store")
    func forcedCounter() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        let authentication = try await harness.signIn(record, tampering: Tampering(signCount: 1000))
        #expect(authentication.newSignCount == 1000)
        #expect(try await harness.authenticator.store.credential(id: record.id)?.signCount == 1)
    }

    // MARK: RP ID and origin

    @Test(
        "an RP ID that does not fit the origin → rpIDNotValidForOrigin",
        arguments: [
            ("https://example.com", "other.com"), ("https://notexample.com", "example.com"),
            ("http://example.com", "example.com"),
            ("https://example.com", "com.example"),
        ])
    func rpIDNotValid(origin: String, rpID: String) async throws {
        let harness = Harness()
        var options = harness.creationOptions()
        options.rp.id = rpID
        await #expect(throws: VirtualAuthenticatorError.rpIDNotValidForOrigin(rpID: rpID, origin: origin)) {
            try await harness.authenticator.register(options: options, origin: origin)
        }
    }

    @Test(
        "an omitted RP ID is the origin's host; localhost over http is allowed",
        arguments: [
            ("https://login.example.com:8443", "login.example.com"), ("http://localhost:8080", "localhost"),
        ])
    func rpIDFromOrigin(origin: String, expected: String) async throws {
        let harness = Harness()
        var options = harness.creationOptions()
        options.rp.id = nil
        let credential = try await harness.authenticator.register(options: options, origin: origin)
        let stored = try await harness.authenticator.store.credential(id: credential.rawId.bytes)
        #expect(stored?.rpID == expected)
        let authenticatorData = try AuthenticatorData(bytes: try #require(credential.response.authenticatorData?.bytes))
        #expect(authenticatorData.rpIDHash == Array(SHA256.hash(data: Array(expected.utf8))))
    }

    @Test("one authenticator judges each origin by itself, origins it has seen (kept parsed) and more than it keeps")
    func rpIDAcrossOrigins() async throws {
        let harness = Harness()
        var options = harness.creationOptions()
        options.rp.id = "example.com"
        let fitting = (0..<20).map { "https://app\($0).example.com" }
        for origin in fitting + fitting {
            _ = try await harness.authenticator.register(options: options, origin: origin)
            await #expect(
                throws: VirtualAuthenticatorError.rpIDNotValidForOrigin(rpID: "example.com", origin: origin + ".evil")
            ) {
                try await harness.authenticator.register(options: options, origin: origin + ".evil")
            }
        }
    }

    @Test("an app origin needs the RP ID from the options")
    func appOriginNeedsRPID() async throws {
        let harness = Harness()
        var options = harness.creationOptions()
        options.rp.id = nil
        let origin = "android:apk-key-hash:AAAA"
        await #expect(throws: VirtualAuthenticatorError.rpIDNotValidForOrigin(rpID: "", origin: origin)) {
            try await harness.authenticator.register(options: options, origin: origin)
        }
    }

    // MARK: Attestation conveyance

    @Test(
        "attestation \"none\" requested: the client replaces the statement with none",
        arguments: [
            AttestationMode.packedSelf, .packed(try TestCA.root.get()), .fidoU2F(try TestCA.root.get()),
        ])
    func nonePreference(mode: AttestationMode) async throws {
        let harness = Harness(.testing(attestation: mode))
        let options = harness.creationOptions(attestation: .none)
        let credential = try await harness.create(options)
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(registration.attestationFormat == "none")
        #expect(registration.aaguid == (mode.format == "fido-u2f" ? .zero : VirtualAuthenticator.defaultAAGUID))
    }

    @Test("attestation \"none\" requested: zero-AAGUID self attestation is kept (WebAuthn L3 §5.1.3)")
    func noneKeepsAnonymousSelf() async throws {
        let harness = Harness(.testing(attestation: .packedSelf) { $0.aaguid = .zero })
        let options = harness.creationOptions(attestation: .none)
        let credential = try await harness.create(options)
        #expect(try await harness.finishRegistration(credential, options: options).attestationType == .self)
    }

    @Test("honorsNoneAttestationPreference off: the statement is sent as configured")
    func noneIgnored() async throws {
        let harness = Harness(.testing(attestation: .packedSelf) { $0.honorsNoneAttestationPreference = false })
        let options = harness.creationOptions(attestation: .none)
        let credential = try await harness.create(options)
        #expect(try await harness.finishRegistration(credential, options: options).attestationFormat == "packed")
    }
}
