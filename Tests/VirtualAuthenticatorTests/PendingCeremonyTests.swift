import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// The ceremony API that keeps its own pending state: `beginRegistration(for:)` / `beginAuthentication(for:)` return the
/// options and a Codable pending value, and the finish checks everything the options promised, including who owns
/// the credential.
@Suite("Pending ceremonies: begin returns the state, finish checks it")
struct PendingCeremonyTests {
    /// Registers `user` through the pending API and returns the record a server stores.
    private func register(_ harness: Harness, user: UserEntity = Harness.alice) async throws -> CredentialRecord {
        let (options, pending) = harness.relyingParty.beginRegistration(for: user, residentKey: .required)
        let credential = try await harness.create(options)
        let verified = try await harness.relyingParty.finishRegistration(credential, pending: roundTrip(pending))
        return Harness.record(verified, user: user)
    }

    /// The pending value as a server keeps it: JSON out and back.
    private func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    @Test("the pending value survives JSON, with bytes as base64url")
    func pendingIsCodable() throws {
        let harness = Harness()
        let (options, pending) = harness.relyingParty.beginAuthentication(
            for: .identified(
                userHandle: Harness.alice.id.bytes, credentials: [PublicKeyCredentialDescriptor(id: [1, 2, 3])]),
            mediation: .conditional
        )
        #expect(try roundTrip(pending) == pending)
        #expect(pending.challenge == options.challenge)
        #expect(pending.allowedCredentialIDs.map(\.bytes) == [[1, 2, 3]])
        let json = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)
        #expect(json.contains("\"AQID\""), "\(json)")
        #expect(json.contains("\"conditional\""), "\(json)")
    }

    @Test("a sign-in for a named account verifies its own passkey")
    func identifiedSignIn() async throws {
        let harness = Harness()
        let record = try await register(harness)
        let (options, pending) = harness.relyingParty.beginAuthentication(
            for: .identified(
                userHandle: Harness.alice.id.bytes, credentials: [PublicKeyCredentialDescriptor(id: record.id)])
        )
        let credential = try await harness.authenticator.authenticate(options: options, origin: harness.origin)
        let verified = try harness.relyingParty.finishAuthentication(
            credential, pending: try roundTrip(pending), credential: record)
        #expect(verified.credentialID == record.id)
    }

    @Test("a sign-in begun for one account refuses another account's passkey → credentialNotAllowed")
    func otherOwnerRefused() async throws {
        let harness = Harness()
        _ = try await register(harness)
        let bobs = try await register(harness, user: Harness.bob)
        // Options for alice that (wrongly) allow nothing in particular; bob's passkey answers.
        let (options, pending) = harness.relyingParty.beginAuthentication(
            for: .identified(userHandle: Harness.alice.id.bytes, credentials: [])
        )
        let credential = try await harness.authenticator.authenticate(
            options: options, origin: harness.origin, choice: .credentialID(bobs.id))
        await expectWebAuthnError(.credentialNotAllowed) {
            try harness.relyingParty.finishAuthentication(credential, pending: pending, credential: bobs)
        }
    }

    @Test("a username-less sign-in needs the assertion's userHandle → userHandleMismatch")
    func discoverableNeedsUserHandle() async throws {
        let harness = Harness()
        let record = try await register(harness)
        let (options, pending) = harness.relyingParty.beginAuthentication(for: .discoverable)
        #expect(options.allowCredentials == nil)
        var credential = try await harness.authenticator.authenticate(options: options, origin: harness.origin)
        #expect(
            try harness.relyingParty.finishAuthentication(credential, pending: pending, credential: record).credentialID
                == record.id)

        credential.response.userHandle = nil
        await expectWebAuthnError(.userHandleMismatch) {
            try harness.relyingParty.finishAuthentication(credential, pending: pending, credential: record)
        }
        var ownerless = record
        ownerless.userHandle = nil
        let again = try await harness.authenticator.authenticate(options: options, origin: harness.origin)
        await expectWebAuthnError(.userHandleMismatch) {
            try harness.relyingParty.finishAuthentication(again, pending: pending, credential: ownerless)
        }
    }

    @Test("a required user-verification policy cannot be loosened by the request, and the finish enforces it")
    func requiredPolicyWins() async throws {
        let harness = Harness { $0.userVerification = .required }
        let record = try await register(harness)
        let (options, pending) = harness.relyingParty.beginAuthentication(
            for: .identified(
                userHandle: Harness.alice.id.bytes, credentials: [PublicKeyCredentialDescriptor(id: record.id)]),
            userVerification: .discouraged
        )
        #expect(options.userVerification == .required)
        #expect(pending.userVerification == .required)
        let credential = try await harness.authenticator.authenticate(
            options: options, origin: harness.origin, tampering: Tampering(clearUserVerification: true)
        )
        await expectWebAuthnError(.userVerificationRequired) {
            try harness.relyingParty.finishAuthentication(credential, pending: pending, credential: record)
        }
    }

    @Test("a registration without UP passes only when begun with conditional mediation")
    func conditionalRegistration() async throws {
        let harness = Harness()
        let (options, pending) = harness.relyingParty.beginRegistration(for: Harness.alice, mediation: .conditional)
        let credential = try await harness.create(options, tampering: Tampering(clearUserPresence: true))
        _ = try await harness.relyingParty.finishRegistration(credential, pending: pending)

        let (plainOptions, plain) = harness.relyingParty.beginRegistration(for: Harness.bob)
        let withoutPresence = try await harness.create(plainOptions, tampering: Tampering(clearUserPresence: true))
        await expectWebAuthnError(.userPresenceRequired) {
            try await harness.relyingParty.finishRegistration(withoutPresence, pending: plain)
        }
    }

    @Test("another challenge than the pending one → challengeMismatch")
    func challengeFromPending() async throws {
        let harness = Harness()
        let (options, _) = harness.relyingParty.beginRegistration(for: Harness.alice)
        let (_, other) = harness.relyingParty.beginRegistration(for: Harness.alice)
        let credential = try await harness.create(options)
        await expectWebAuthnError(.challengeMismatch) {
            try await harness.relyingParty.finishRegistration(credential, pending: other)
        }
    }
}
