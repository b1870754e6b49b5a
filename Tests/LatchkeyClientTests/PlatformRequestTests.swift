import Foundation
import LatchkeyClient
import Testing
import WebAuthn

/// Everything the AuthenticationServices requests are built from, read from the server's options: the values each
/// request property gets, which providers are asked, and the refusals.
@Suite("Platform requests")
struct PlatformRequestTests {
    let relyingParty = RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
    let user = UserEntity(id: [7, 7], name: "alice", displayName: "Alice Liddell")

    @Test("registration: user name and display name, algorithms in order, attestation, user verification, resident key")
    func registrationValues() throws {
        var options = relyingParty.beginRegistration(
            user: user,
            excludeCredentials: [PublicKeyCredentialDescriptor(id: [9, 9], transports: [.usb, .nfc, .internal])],
            residentKey: .required, userVerification: .required, attestation: .direct
        )
        options.pubKeyCredParams = [.init(alg: .edDSA), .init(alg: .es256), .init(alg: COSEAlgorithm(rawValue: -257))]
        options.timeout = 120_000
        let request = try PlatformRegistrationRequest(options: options)
        #expect(request.relyingPartyIdentifier == "example.com")
        #expect(request.challenge == Data(options.challenge.bytes))
        #expect(
            request.userID == Data([7, 7]) && request.userName == "alice" && request.userDisplayName == "Alice Liddell")
        #expect(request.algorithms == [-8, -7, -257])
        #expect(request.attestationPreference == "direct")
        #expect(request.userVerificationPreference == "required")
        #expect(request.residentKeyPreference == "required")
        #expect(
            request.excludedCredentials == [
                PlatformCredentialDescriptor(id: Data([9, 9]), transports: [.usb, .nfc, .internal])
            ])
        #expect(request.excludedCredentials[0].securityKeyTransports == ["usb", "nfc"])
        #expect(request.timeout == .seconds(120))
        #expect(request.providers == [.platform, .securityKey])
        #expect(request.style == .standard)
    }

    @Test("registration defaults: preferred user verification, no attestation, requireResidentKey maps to required")
    func registrationDefaults() throws {
        var options = relyingParty.beginRegistration(user: user)
        options.authenticatorSelection = AuthenticatorSelectionCriteria(requireResidentKey: true)
        options.attestation = nil
        let request = try PlatformRegistrationRequest(options: options)
        #expect(request.userVerificationPreference == "preferred" && request.attestationPreference == "none")
        #expect(request.residentKeyPreference == "required")
        options.authenticatorSelection = nil
        #expect(try PlatformRegistrationRequest(options: options).residentKeyPreference == "discouraged")
        options.pubKeyCredParams = []
        #expect(
            try PlatformRegistrationRequest(options: options).algorithms == [-7, -257],
            "WebAuthn's default for an empty list")
    }

    @Test(
        "registration providers: platform needs ES256; platform attachment, conditional style or no security keys ask it alone"
    )
    func registrationProviders() throws {
        var options = relyingParty.beginRegistration(user: user)
        options.pubKeyCredParams = [.init(alg: .es256)]
        #expect(try PlatformRegistrationRequest(options: options, allowsSecurityKeys: false).providers == [.platform])
        #expect(try PlatformRegistrationRequest(options: options, style: .conditional).providers == [.platform])
        options.authenticatorSelection = AuthenticatorSelectionCriteria(authenticatorAttachment: .platform)
        #expect(try PlatformRegistrationRequest(options: options).providers == [.platform])
        options.authenticatorSelection = AuthenticatorSelectionCriteria(authenticatorAttachment: .crossPlatform)
        #expect(
            try PlatformRegistrationRequest(options: options).providers == [.platform, .securityKey],
            "a phone through a QR code is cross-platform")

        options.authenticatorSelection = nil
        options.pubKeyCredParams = [.init(alg: .edDSA)]
        #expect(try PlatformRegistrationRequest(options: options).providers == [.securityKey])
        let refusal = #expect(throws: AuthenticatorError.self) {
            try PlatformRegistrationRequest(options: options, allowsSecurityKeys: false)
        }
        #expect(refusal?.code == .unsupported)
        let conditional = #expect(throws: AuthenticatorError.self) {
            try PlatformRegistrationRequest(options: options, style: .conditional)
        }
        #expect(conditional?.code == .unsupported && conditional?.message.contains("ES256") == true)
    }

    @Test("registration refusals: no RP ID, empty challenge, a user ID outside 1...64 bytes")
    func registrationRefusals() throws {
        var options = relyingParty.beginRegistration(user: user)
        options.rp.id = nil
        #expect(throws: AuthenticatorError(.invalidOptions, "the creation options name no RP ID")) {
            try PlatformRegistrationRequest(options: options)
        }
        #expect(
            try PlatformRegistrationRequest(options: options, defaultRelyingPartyIdentifier: "example.com")
                .relyingPartyIdentifier == "example.com")
        options.rp.id = "example.com"
        options.challenge = Base64URLBytes([])
        #expect(throws: AuthenticatorError(.invalidOptions, "the challenge is empty")) {
            try PlatformRegistrationRequest(options: options)
        }
        options.challenge = Base64URLBytes([1])
        options.user.id = Base64URLBytes(Array(repeating: 1, count: 65))
        #expect(throws: AuthenticatorError(.invalidOptions, "user.id must be 1 to 64 bytes")) {
            try PlatformRegistrationRequest(options: options)
        }
    }

    @Test("registration extensions: largeBlob support and PRF, read strictly")
    func registrationExtensions() throws {
        var options = relyingParty.beginRegistration(
            user: user,
            extensions: [
                "largeBlob": .object(["support": .string("required")]),
                "prf": .object(["eval": .object(["first": .string("AQID"), "second": .string("BAU")])]),
            ])
        var request = try PlatformRegistrationRequest(options: options)
        #expect(request.largeBlob == .required)
        #expect(request.prf == .evaluate(.init(first: Data([1, 2, 3]), second: Data([4, 5]))))

        options.extensions = ["largeBlob": .object([:]), "prf": .object([:])]
        request = try PlatformRegistrationRequest(options: options)
        #expect(request.largeBlob == .preferred && request.prf == .checkForSupport)

        for bad: JSONValue in [.string("required"), .object(["support": .string("always")])] {
            options.extensions = ["largeBlob": bad]
            #expect(throws: AuthenticatorError.self) { try PlatformRegistrationRequest(options: options) }
        }
        options.extensions = ["prf": .object(["eval": .object(["first": .string("not base64url!")])])]
        let refusal = #expect(throws: AuthenticatorError.self) { try PlatformRegistrationRequest(options: options) }
        #expect(refusal?.code == .invalidOptions && refusal?.message == "extensions: prf.eval.first must be base64url")
    }

    @Test("assertion: credentials with transports, user verification, timeout, username-less")
    func assertionValues() throws {
        let options = relyingParty.beginAuthentication(
            allowCredentials: [PublicKeyCredentialDescriptor(id: [9, 9], transports: [.internal, .hybrid])],
            userVerification: .required
        )
        let request = try PlatformAssertionRequest(options: options)
        #expect(request.relyingPartyIdentifier == "example.com" && request.challenge == Data(options.challenge.bytes))
        #expect(
            request.allowedCredentials == [
                PlatformCredentialDescriptor(id: Data([9, 9]), transports: [.internal, .hybrid])
            ])
        #expect(request.userVerificationPreference == "required")
        #expect(request.providers == [.platform], "a credential known to be a passkey needs no security key sheet")

        let usernameLess = try PlatformAssertionRequest(options: relyingParty.beginAuthentication())
        #expect(usernameLess.allowedCredentials.isEmpty && usernameLess.providers == [.platform, .securityKey])
        #expect(
            try PlatformAssertionRequest(options: relyingParty.beginAuthentication(), allowsSecurityKeys: false)
                .providers == [.platform])
    }

    @Test("assertion providers follow the transports the server knows")
    func assertionProviders() throws {
        func providers(_ transports: [AuthenticatorTransport]?...) throws -> [PlatformProvider] {
            let options = relyingParty.beginAuthentication(
                allowCredentials: transports.enumerated().map {
                    PublicKeyCredentialDescriptor(id: [UInt8($0.offset + 1)], transports: $0.element)
                })
            return try PlatformAssertionRequest(options: options).providers
        }
        #expect(try providers([.usb]) == [.securityKey])
        #expect(try providers([.usb, .nfc], [.internal]) == [.platform, .securityKey])
        #expect(try providers(nil) == [.platform, .securityKey])
        #expect(try providers([.hybrid]) == [.platform])
        let keyOnly = relyingParty.beginAuthentication(allowCredentials: [
            PublicKeyCredentialDescriptor(id: [1], transports: [.usb])
        ])
        #expect(try PlatformAssertionRequest(options: keyOnly, allowsSecurityKeys: false).providers == [.platform])
    }

    @Test("assertion extensions: largeBlob read/write, PRF eval and evalByCredential, the U2F appid")
    func assertionExtensions() throws {
        var options = relyingParty.beginAuthentication(extensions: [
            "largeBlob": .object(["read": .bool(true)]),
            "prf": .object([
                "eval": .object(["first": .string("AQ")]),
                "evalByCredential": .object(["CQk": .object(["first": .string("Ag"), "second": .string("Aw")])]),
            ]),
            "appid": .string("https://example.com/app-id.json"),
        ])
        var request = try PlatformAssertionRequest(options: options)
        #expect(request.largeBlob == .read)
        #expect(
            request.prf
                == .init(
                    values: .init(first: Data([1])),
                    valuesByCredential: [Data([9, 9]): .init(first: Data([2]), second: Data([3]))]))
        #expect(request.appID == "https://example.com/app-id.json")

        options.extensions = ["largeBlob": .object(["write": .string("AQID")])]
        request = try PlatformAssertionRequest(options: options)
        #expect(request.largeBlob == .write(Data([1, 2, 3])) && request.prf == nil && request.appID == nil)

        for bad: [String: JSONValue] in [
            ["largeBlob": .object(["read": .bool(true), "write": .string("AQ")])],
            ["largeBlob": .object([:])],
            ["prf": .object([:])],
            ["prf": .object(["evalByCredential": .object(["!!": .object(["first": .string("AQ")])])])],
            ["appid": .string("")],
        ] {
            options.extensions = bad
            let refusal = #expect(throws: AuthenticatorError.self) { try PlatformAssertionRequest(options: options) }
            #expect(refusal?.code == .invalidOptions)
        }
        options.extensions = ["largeBlob": .object(["read": .bool(false)]), "credProps": .bool(true)]
        #expect(try PlatformAssertionRequest(options: options).largeBlob == nil, "unknown extensions are ignored")
    }

    @Test("assertion refusals: no RP ID, empty challenge")
    func assertionRefusals() throws {
        let noRP = PublicKeyCredentialRequestOptions(challenge: [1])
        #expect(throws: AuthenticatorError(.invalidOptions, "the request options name no RP ID")) {
            try PlatformAssertionRequest(options: noRP)
        }
        #expect(
            try PlatformAssertionRequest(options: noRP, defaultRelyingPartyIdentifier: "example.com")
                .relyingPartyIdentifier == "example.com")
        #expect(throws: AuthenticatorError(.invalidOptions, "the challenge is empty")) {
            try PlatformAssertionRequest(options: PublicKeyCredentialRequestOptions(challenge: [], rpId: "example.com"))
        }
    }
}
