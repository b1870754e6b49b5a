import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// The relying party's expected client-data types (Secure Payment Confirmation's `payment.get`) and the U2F `appid`
/// extension (credentials registered with the U2F API, whose rpIdHash is the SHA-256 of the AppID).
@Suite("Expected client-data type and the appid extension")
struct ClientDataTypeAndAppIDTests {
    static let appID = "https://example.com/u2f/appid.json"

    @Test("authenticationType payment.get accepts a payment.get assertion and refuses webauthn.get")
    func paymentType() async throws {
        let harness = Harness(configure: { $0.authenticationType = "payment.get" })
        let record = try await harness.registeredRecord()
        let payment = try await harness.signIn(record, tampering: Tampering(clientDataType: "payment.get"))
        #expect(payment.credentialID == record.id)
        await expectWebAuthnError(.typeMismatch) { try await harness.signIn(record) }
    }

    @Test("registrationType replaces webauthn.create")
    func registrationType() async throws {
        let harness = Harness(configure: { $0.registrationType = "example.create" })
        let options = harness.creationOptions()
        let standard = try await harness.create(options)
        await expectWebAuthnError(.typeMismatch) { try await harness.finishRegistration(standard, options: options) }
        let customOptions = harness.creationOptions()
        let custom = try await harness.create(customOptions, tampering: Tampering(clientDataType: "example.create"))
        let registration = try await harness.finishRegistration(custom, options: customOptions)
        #expect(registration.credentialID == custom.rawId.bytes)
    }

    /// An assertion whose rpIdHash is SHA-256 of the AppID, and whose client output says `appid: true` when `used`.
    private func appIDAssertion(
        _ harness: Harness, record: CredentialRecord, used: Bool
    ) async throws -> (AuthenticationCredential, PublicKeyCredentialRequestOptions) {
        let options = harness.requestOptions(allowing: [record])
        var credential = try await harness.authenticator.authenticate(
            options: options, origin: harness.origin, tampering: Tampering(rpID: Self.appID)
        )
        if used { credential.clientExtensionResults["appid"] = .bool(true) }
        return (credential, options)
    }

    @Test("with appID set and appid: true in the client output, the AppID's hash is accepted as rpIdHash")
    func appIDAccepted() async throws {
        let harness = Harness(configure: { $0.appID = Self.appID })
        let record = try await harness.registeredRecord()
        let (credential, options) = try await appIDAssertion(harness, record: record, used: true)
        let verified = try harness.finishAuthentication(credential, options: options, record: record)
        #expect(verified.credentialID == record.id)
        // The RP ID's own hash is still accepted.
        _ = try await harness.signIn(record)
    }

    @Test("the AppID's hash is refused when the client did not say it used appid, or the RP has no appID")
    func appIDRefused() async throws {
        let withAppID = Harness(configure: { $0.appID = Self.appID })
        let record = try await withAppID.registeredRecord()
        let (unused, unusedOptions) = try await appIDAssertion(withAppID, record: record, used: false)
        await expectWebAuthnError(.rpIdHashMismatch) {
            try withAppID.finishAuthentication(unused, options: unusedOptions, record: record)
        }

        let withoutAppID = Harness()
        let other = try await withoutAppID.registeredRecord()
        let (claimed, claimedOptions) = try await appIDAssertion(withoutAppID, record: other, used: true)
        await expectWebAuthnError(.rpIdHashMismatch) {
            try withoutAppID.finishAuthentication(claimed, options: claimedOptions, record: other)
        }
    }

    @Test("beginAuthentication asks for the appid extension when appID is set, keeping a given value")
    func appIDInOptions() {
        var rp = RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
        #expect(rp.beginAuthentication().extensions?["appid"] == nil)
        rp.appID = Self.appID
        #expect(rp.beginAuthentication().extensions?["appid"] == .string(Self.appID))
        let given = rp.beginAuthentication(extensions: ["appid": .string("https://other.example/appid.json")])
        #expect(given.extensions?["appid"] == .string("https://other.example/appid.json"))
    }
}
