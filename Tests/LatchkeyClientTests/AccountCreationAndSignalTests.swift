import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

@testable import LatchkeyClient

/// The iOS 26 passkey sign-up sheet's request and result, the Signal API values, and error mapping from any error.
@Suite("Account creation, signals and error mapping")
struct AccountCreationAndSignalTests {
    let relyingParty = RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
    let user = UserEntity(id: [7, 7], name: "pending", displayName: "")

    @Test("the account creation request takes the options' challenge and user ID, and needs ES256 and a contact kind")
    func accountCreationRequest() throws {
        var options = relyingParty.beginRegistration(user: user)
        options.timeout = 60_000
        let request = try AccountCreationRequest(
            options: options, acceptedContacts: [.email, .phoneNumber], requestsName: false)
        #expect(request.relyingPartyIdentifier == "example.com" && request.challenge == Data(options.challenge.bytes))
        #expect(
            request.userID == Data([7, 7]) && request.acceptedContacts == [.email, .phoneNumber]
                && !request.requestsName)
        #expect(request.timeout == .seconds(60))

        #expect(throws: AuthenticatorError.self) { try AccountCreationRequest(options: options, acceptedContacts: []) }
        options.pubKeyCredParams = [.init(alg: .edDSA)]
        let refusal = #expect(throws: AuthenticatorError.self) { try AccountCreationRequest(options: options) }
        #expect(refusal?.code == .unsupported)
    }

    @Test("the account creation result: the contact is the account's name, the name joins, the passkey verifies")
    func accountCreationResult() async throws {
        let options = relyingParty.beginRegistration(user: user)
        let made = try await VirtualAuthenticator(configuration: .passkeyProvider).register(
            options: options, origin: "https://example.com")
        let registration = PlatformRegistrationResult(
            provider: .platform, credentialID: Data(made.rawId.bytes),
            rawClientDataJSON: Data(made.response.clientDataJSON.bytes),
            rawAttestationObject: Data(made.response.attestationObject.bytes), attachment: .platform
        )
        let result = AccountCreationResult(
            contact: .email("ada@example.com"), givenName: "Ada", familyName: "Lovelace", registration: registration)
        #expect(result.contact.value == "ada@example.com" && result.displayName == "Ada Lovelace")
        #expect(
            AccountCreationResult(contact: .phoneNumber("+15550100"), givenName: "", registration: registration)
                .displayName == nil)
        let credential = try result.credential()
        _ = try await relyingParty.finishRegistration(credential, expectedChallenge: options.challenge.bytes)
        #expect(try AuthorizationResult.accountCreation(result).accountCreation() == result)
        #expect(throws: AuthenticatorError.self) { try AuthorizationResult.accountCreation(result).registration() }
    }

    @Test(
        "signals for a signed-in account: accepted credentials then current details; none without RP ID or user handle")
    func accountSignals() {
        let signals = PasskeySignal.accountState(
            relyingPartyIdentifier: "example.com", userHandle: Data([1]),
            acceptedCredentialIDs: [Data([2]), Data([3])],
            name: "ada@example.com", displayName: "Ada"
        )
        #expect(
            signals == [
                .allAcceptedCredentials(
                    relyingPartyIdentifier: "example.com", userHandle: Data([1]), credentialIDs: [Data([2]), Data([3])]),
                .currentUserDetails(
                    relyingPartyIdentifier: "example.com", userHandle: Data([1]), name: "ada@example.com",
                    displayName: "Ada"),
            ])
        #expect(signals.map(\.webMethod) == ["signalAllAcceptedCredentials", "signalCurrentUserDetails"])
        #expect(
            PasskeySignal.unknownCredential(relyingPartyIdentifier: "example.com", credentialID: Data([9])).webMethod
                == "signalUnknownCredential")
        #expect(
            PasskeySignal.accountState(
                relyingPartyIdentifier: nil, userHandle: Data([1]), acceptedCredentialIDs: [], name: "a",
                displayName: ""
            ).isEmpty)
        #expect(
            PasskeySignal.accountState(
                relyingPartyIdentifier: "example.com", userHandle: Data(), acceptedCredentialIDs: [], name: "a",
                displayName: ""
            ).isEmpty)
    }

    @Test("any error AuthenticationServices reports maps by its NSError domain and code; ours pass through")
    func errorsFromAnyError() {
        let canceled = NSError(
            domain: AuthorizationErrorMapping.domain, code: 1001,
            userInfo: [NSLocalizedDescriptionKey: "The user canceled."])
        #expect(AuthorizationErrorMapping.error(canceled) == AuthenticatorError(.cancelled, "The user canceled."))
        let notConfigured = NSError(domain: AuthorizationErrorMapping.domain, code: 1010)
        #expect(AuthorizationErrorMapping.error(notConfigured).code == .deviceNotConfigured)
        #expect(AuthorizationErrorMapping.error(NSError(domain: "NSURLErrorDomain", code: -1009)).code == .failed)
        let ours = AuthenticatorError(.timedOut, "slow")
        #expect(AuthorizationErrorMapping.error(ours) == ours)
    }
}
