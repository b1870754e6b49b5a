import Foundation
import LatchkeyClient
import Testing
import VirtualAuthenticator
import WebAuthn

/// The platform-independent half of the Apple adapters: what AuthenticationServices results become, what
/// requests are built from, error and credential-state mapping, and the Sign in with Apple nonce.
@Suite("Apple adapter logic")
struct AppleAdapterLogicTests {
    struct FakeRegistration: PlatformRegistrationResult {
        var credentialID: Data
        var rawClientDataJSON: Data
        var rawAttestationObject: Data?
        var attachment: AuthenticatorAttachment?
        var reportedTransports: [AuthenticatorTransport] = []
    }

    struct FakeAssertion: PlatformAssertionResult {
        var credentialID: Data
        var rawClientDataJSON: Data
        var rawAuthenticatorData: Data
        var signature: Data
        var userID: Data
        var attachment: AuthenticatorAttachment?
    }

    let relyingParty = RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
    let user = UserEntity(id: [7, 7], name: "alice", displayName: "Alice")

    @Test("a platform registration maps to RegistrationResponseJSON the relying party verifies")
    func registrationMapping() async throws {
        let options = relyingParty.beginRegistration(user: user)
        let made = try await VirtualAuthenticator(configuration: .passkeyProvider).register(options: options, origin: "https://example.com")
        let platform = FakeRegistration(
            credentialID: Data(made.rawId.bytes), rawClientDataJSON: Data(made.response.clientDataJSON.bytes),
            rawAttestationObject: Data(made.response.attestationObject.bytes), attachment: .platform
        )
        let mapped = try PlatformCredentialMapping.registration(platform)
        #expect(mapped.id == Base64URL.encode(made.rawId.bytes))
        #expect(mapped.response.transports == [.internal, .hybrid])
        let json = try JSONEncoder().encode(mapped)
        _ = try await relyingParty.finishRegistration(RegistrationCredential.parse(json), expectedChallenge: options.challenge.bytes)

        var withoutObject = platform
        withoutObject.rawAttestationObject = nil
        #expect(throws: AuthenticatorError.self) { try PlatformCredentialMapping.registration(withoutObject) }
        var key = platform
        key.attachment = .crossPlatform
        key.reportedTransports = [.usb, .nfc]
        #expect(try PlatformCredentialMapping.registration(key).response.transports == [.usb, .nfc])
    }

    @Test("a platform assertion maps to AuthenticationResponseJSON; an empty user ID becomes no userHandle")
    func assertionMapping() {
        let platform = FakeAssertion(
            credentialID: Data([1, 2]), rawClientDataJSON: Data([3]), rawAuthenticatorData: Data([4]),
            signature: Data([5]), userID: Data([6]), attachment: .platform
        )
        let mapped = PlatformCredentialMapping.assertion(platform)
        #expect(mapped.rawId.bytes == [1, 2] && mapped.id == "AQI")
        #expect(mapped.response.signature.bytes == [5] && mapped.response.userHandle?.bytes == [6])
        var anonymous = platform
        anonymous.userID = Data()
        #expect(PlatformCredentialMapping.assertion(anonymous).response.userHandle == nil)
    }

    @Test("requests take RP ID, challenge, user, preferences and credential lists from the options")
    func requestBuilding() throws {
        let excluded = PublicKeyCredentialDescriptor(id: [9, 9])
        let creation = relyingParty.beginRegistration(
            user: user, excludeCredentials: [excluded], userVerification: .required, attestation: .direct
        )
        let registration = try PlatformRegistrationRequest(options: creation)
        #expect(registration.relyingPartyIdentifier == "example.com")
        #expect(registration.challenge == Data(creation.challenge.bytes))
        #expect(registration.userID == Data([7, 7]) && registration.userName == "alice")
        #expect(registration.userVerificationPreference == "required" && registration.attestationPreference == "direct")
        #expect(registration.excludedCredentialIDs == [Data([9, 9])])

        let request = relyingParty.beginAuthentication(allowCredentials: [excluded])
        let assertion = try PlatformAssertionRequest(options: request)
        #expect(assertion.allowedCredentialIDs == [Data([9, 9])] && assertion.userVerificationPreference == "preferred")

        let noRP = PublicKeyCredentialRequestOptions(challenge: [1])
        #expect(throws: AuthenticatorError(.invalidOptions, "the request options name no RP ID")) { try PlatformAssertionRequest(options: noRP) }
        #expect(try PlatformAssertionRequest(options: noRP, defaultRelyingPartyIdentifier: "example.com").relyingPartyIdentifier == "example.com")
        #expect(throws: AuthenticatorError.self) { try PlatformAssertionRequest(options: PublicKeyCredentialRequestOptions(challenge: [], rpId: "example.com")) }
    }

    @Test("ASAuthorizationError codes map to the stable codes", arguments: [
        (1000, "failed"), (1001, "cancelled"), (1002, "failed"), (1003, "unsupported"), (1004, "notAllowed"),
        (1005, "noCredentials"), (1006, "excludedCredential"),
    ])
    func authorizationErrors(code: Int, expected: String) {
        #expect(AuthorizationErrorMapping.error(domain: AuthorizationErrorMapping.domain, code: code, description: "x").code.rawValue == expected)
        #expect(AuthorizationErrorMapping.error(domain: "NSURLErrorDomain", code: code, description: "x").code == .failed)
    }

    @Test("credential states: raw values, and which ones sign out")
    func credentialStates() {
        #expect((0...3).compactMap(AppleIDCredentialState.init(rawValue:)) == [.revoked, .authorized, .notFound, .transferred])
        #expect(AppleIDCredentialState(rawValue: 4) == nil)
        #expect(AppleIDCredentialState.allCases.filter(\.requiresSignOut) == [.revoked, .notFound])
    }

    @Test("Sign in with Apple: SHA-256 hex nonce, full name and email, fresh nonce and state each time")
    func signInWithApple() {
        #expect(SignInWithAppleNonce(raw: "nonce-123").sha256 == "1d9664478addbe4ee7186c19b2a2c98e461a77dc1e183654f36916bf9fb51cba")
        let first = SignInWithAppleRequest(includesPasswordRequest: true)
        let second = SignInWithAppleRequest()
        #expect(first.scopes.map(\.rawValue) == ["full_name", "email"])
        #expect(first.nonce != second.nonce && first.state != second.state)
        #expect(first.nonce.raw.count == 43 && first.nonce.sha256.count == 64)
        #expect(first.matches(state: first.state) && !first.matches(state: second.state) && !first.matches(state: nil))
        #expect(first.includesPasswordRequest && !second.includesPasswordRequest)
    }
}
