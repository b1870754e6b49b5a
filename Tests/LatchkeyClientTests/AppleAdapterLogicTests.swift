import Foundation
import LatchkeyAPI
import Testing
import VirtualAuthenticator
import WebAuthn

@testable import LatchkeyClient

/// The platform-independent half of the Apple adapters: what AuthenticationServices results become, error and
/// credential-state mapping, Sign in with Apple, and the one sign-in sheet's outcomes.
@Suite("Apple adapter logic")
struct AppleAdapterLogicTests {
    let relyingParty = RelyingParty(id: "example.com", name: "Example", origins: ["https://example.com"])
    let user = UserEntity(id: [7, 7], name: "alice", displayName: "Alice")

    /// A registration made by a real (virtual) authenticator, as the platform would hand it over.
    func platformRegistration(
        provider: PlatformProvider = .platform, attachment: PlatformAttachment?
    ) async throws -> (PlatformRegistrationResult, PublicKeyCredentialCreationOptions) {
        let options = relyingParty.beginRegistration(user: user)
        let made = try await VirtualAuthenticator(configuration: .passkeyProvider).register(
            options: options, origin: "https://example.com")
        let result = PlatformRegistrationResult(
            provider: provider, credentialID: Data(made.rawId.bytes),
            rawClientDataJSON: Data(made.response.clientDataJSON.bytes),
            rawAttestationObject: Data(made.response.attestationObject.bytes), attachment: attachment
        )
        return (result, options)
    }

    @Test("a platform registration maps to RegistrationResponseJSON the relying party verifies")
    func registrationVerifies() async throws {
        let (result, options) = try await platformRegistration(attachment: .platform)
        let mapped = try PlatformCredentialMapping.registration(result)
        #expect(mapped.id == Base64URL.encode(Array(result.credentialID)))
        let json = try JSONEncoder().encode(mapped)
        _ = try await relyingParty.finishRegistration(
            RegistrationCredential.parse(json), expectedChallenge: options.challenge.bytes)
    }

    @Test(
        "attachment and transports are what the system reported",
        arguments: [
            (
                PlatformProvider.platform, PlatformAttachment?.some(.platform), [String](), "platform",
                ["hybrid", "internal"]
            ),
            (.platform, .crossPlatform, [], "cross-platform", ["hybrid"]),
            (.platform, nil, [], nil, nil),
            (.securityKey, .crossPlatform, ["usb", "nfc"], "cross-platform", ["nfc", "usb"]),
            (.securityKey, nil, [], "cross-platform", nil),
        ] as [(PlatformProvider, PlatformAttachment?, [String], String?, [String]?)])
    func attachmentAndTransports(
        provider: PlatformProvider, attachment: PlatformAttachment?, reported: [String], expectedAttachment: String?,
        expectedTransports: [String]?
    ) async throws {
        var (result, _) = try await platformRegistration(provider: provider, attachment: attachment)
        result.transports = reported
        let mapped = try PlatformCredentialMapping.registration(result)
        #expect(mapped.authenticatorAttachment?.rawValue == expectedAttachment)
        #expect(mapped.response.transports?.map(\.rawValue) == expectedTransports)
    }

    @Test("registration extension outputs: largeBlob.supported, prf.enabled and results")
    func registrationExtensionOutputs() async throws {
        var (result, _) = try await platformRegistration(attachment: .platform)
        #expect(try PlatformCredentialMapping.registration(result).clientExtensionResults.isEmpty)
        result.largeBlobSupported = false
        result.prfSupported = true
        result.prfOutput = PlatformPRFOutput(first: Data([1]), second: Data([2]))
        let outputs = try PlatformCredentialMapping.registration(result).clientExtensionResults
        #expect(outputs["largeBlob"] == .object(["supported": .bool(false)]))
        #expect(
            outputs["prf"]
                == .object([
                    "enabled": .bool(true), "results": .object(["first": .string("AQ"), "second": .string("Ag")]),
                ]))
    }

    @Test("a registration without attestation object, credential ID or client data fails")
    func registrationMissingFields() async throws {
        let (result, _) = try await platformRegistration(attachment: .platform)
        var noObject = result
        noObject.rawAttestationObject = nil
        #expect(throws: AuthenticatorError(.failed, "the platform returned no attestation object")) {
            try PlatformCredentialMapping.registration(noObject)
        }
        var noID = result
        noID.credentialID = Data()
        #expect(throws: AuthenticatorError.self) { try PlatformCredentialMapping.registration(noID) }
    }

    @Test("a platform assertion maps to AuthenticationResponseJSON; no or empty user ID becomes no userHandle")
    func assertionMapping() throws {
        let result = PlatformAssertionResult(
            provider: .platform, credentialID: Data([1, 2]), rawClientDataJSON: Data([3]),
            rawAuthenticatorData: Data([4]),
            signature: Data([5]), userID: Data([6]), attachment: .crossPlatform
        )
        let mapped = try PlatformCredentialMapping.assertion(result)
        #expect(mapped.rawId.bytes == [1, 2] && mapped.id == "AQI")
        #expect(mapped.response.signature.bytes == [5] && mapped.response.userHandle?.bytes == [6])
        #expect(mapped.authenticatorAttachment == .crossPlatform && mapped.clientExtensionResults.isEmpty)
        for userID in [nil, Data()] {
            var anonymous = result
            anonymous.userID = userID
            #expect(try PlatformCredentialMapping.assertion(anonymous).response.userHandle == nil)
        }
        // `Data!` properties that came back nil are copied as empty: a failed ceremony, not a crash.
        var noSignature = result
        noSignature.signature = Data()
        #expect(throws: AuthenticatorError.self) { try PlatformCredentialMapping.assertion(noSignature) }
        var noData = result
        noData.rawAuthenticatorData = Data()
        #expect(throws: AuthenticatorError.self) { try PlatformCredentialMapping.assertion(noData) }
    }

    @Test("assertion extension outputs: appid, largeBlob blob or written, prf results")
    func assertionExtensionOutputs() throws {
        var result = PlatformAssertionResult(
            provider: .securityKey, credentialID: Data([1]), rawClientDataJSON: Data([3]),
            rawAuthenticatorData: Data([4]),
            signature: Data([5]), userID: nil, appIDUsed: true, largeBlobData: Data([9]),
            prfOutput: PlatformPRFOutput(first: Data([8]))
        )
        var outputs = try PlatformCredentialMapping.assertion(result).clientExtensionResults
        #expect(outputs["appid"] == .bool(true))
        #expect(outputs["largeBlob"] == .object(["blob": .string("CQ")]))
        #expect(outputs["prf"] == .object(["results": .object(["first": .string("CA")])]))
        #expect(try PlatformCredentialMapping.assertion(result).authenticatorAttachment == .crossPlatform)
        result.largeBlobData = nil
        result.largeBlobWritten = true
        outputs = try PlatformCredentialMapping.assertion(result).clientExtensionResults
        #expect(outputs["largeBlob"] == .object(["written": .bool(true)]))
    }

    @Test(
        "every ASAuthorizationError code maps to a stable code",
        arguments: [
            (1000, "failed"), (1001, "cancelled"), (1002, "failed"), (1003, "unsupported"), (1004, "notAllowed"),
            (1005, "noCredentials"), (1006, "excludedCredential"), (1007, "credentialExchangeFailed"),
            (1008, "credentialExchangeFailed"), (1009, "preferSignInWithApple"), (1010, "deviceNotConfigured"),
            (1011, "failed"),
        ])
    func authorizationErrors(code: Int, expected: String) {
        let error = AuthorizationErrorMapping.error(
            domain: AuthorizationErrorMapping.domain, code: code, description: "why")
        #expect(error.code.rawValue == expected && error.message == "why")
        #expect(
            AuthorizationErrorMapping.error(domain: "NSURLErrorDomain", code: code, description: "x").code == .failed)
        #expect(AuthenticatorError.Code.all.contains(error.code))
    }

    @Test("credential states: raw values, and which ones sign out")
    func credentialStates() {
        #expect(
            (0...3).compactMap(AppleIDCredentialState.init(rawValue:)) == [
                .revoked, .authorized, .notFound, .transferred,
            ])
        #expect(AppleIDCredentialState(rawValue: 4) == nil)
        #expect(AppleIDCredentialState.allCases.filter(\.requiresSignOut) == [.revoked, .notFound])
    }

    @Test("Sign in with Apple: SHA-256 hex nonce, full name and email, fresh nonce and state each time")
    func signInWithAppleRequest() {
        #expect(
            SignInWithAppleNonce(raw: "nonce-123").sha256
                == "1d9664478addbe4ee7186c19b2a2c98e461a77dc1e183654f36916bf9fb51cba")
        let first = SignInWithAppleRequest()
        let second = SignInWithAppleRequest(scopes: [.email])
        #expect(first.scopes.map(\.rawValue) == ["full_name", "email"] && second.scopes == [.email])
        #expect(first.nonce != second.nonce && first.state != second.state)
        #expect(first.nonce.raw.count == 43 && first.nonce.sha256.count == 64)
        #expect(first.matches(state: first.state) && !first.matches(state: second.state) && !first.matches(state: nil))
    }

    @Test("Sign in with Apple: the credential becomes the /v1/apple/signin body, checked against the request")
    func signInWithAppleBody() throws {
        let request = SignInWithAppleRequest(nonce: SignInWithAppleNonce(raw: "raw-nonce"), state: "s1")
        let credential = AppleIDCredential(
            user: "000123.abc", state: "s1", identityToken: "eyJ.token", authorizationCode: "c1",
            email: "a@example.com",
            givenName: "Alice", familyName: nil, authorizedScopes: [.email], realUserStatus: .likelyReal
        )
        let body = try request.signInRequest(for: credential)
        #expect(
            body
                == AppleSignInRequest(
                    identityToken: "eyJ.token", authorizationCode: "c1", rawNonce: "raw-nonce",
                    fullName: .init(givenName: "Alice", familyName: nil), email: "a@example.com"
                ))
        let json = try #require(String(data: try APIJSON.makeEncoder().encode(body), encoding: .utf8))
        #expect(json.contains(#""identityToken":"eyJ.token""#) && json.contains(#""rawNonce":"raw-nonce""#))

        var returning = credential
        (returning.email, returning.givenName) = (nil, nil)
        #expect(try request.signInRequest(for: returning).fullName == nil, "no name object when Apple sent no name")
        var otherState = credential
        otherState.state = "s2"
        #expect(throws: AuthenticatorError.self) { try request.signInRequest(for: otherState) }
        var noToken = credential
        noToken.identityToken = nil
        #expect(throws: AuthenticatorError(.failed, "Sign in with Apple returned no identity token")) {
            try request.signInRequest(for: noToken)
        }
        #expect(
            AppleIDCredential.text(Data("abc".utf8)) == "abc" && AppleIDCredential.text(Data([0xFF])) == nil
                && AppleIDCredential.text(nil) == nil)
    }

    @Test("the one sheet: each way in becomes its outcome; a way not offered is refused")
    func signInSheetOutcomes() throws {
        let apple = SignInWithAppleRequest(state: "s1")
        let options = relyingParty.beginAuthentication()
        let sheet = try SignInSheetRequest(appleID: apple, includesPasswords: true, passkeyOptions: options)
        #expect(
            sheet.passkey?.providers == [.platform],
            "the sheet offers platform passkeys; security keys have their own flow")

        let assertion = PlatformAssertionResult(
            provider: .platform, credentialID: Data([1]), rawClientDataJSON: Data([2]), rawAuthenticatorData: Data([3]),
            signature: Data([4]), userID: Data([5])
        )
        guard case .passkey(let credential) = try sheet.outcome(for: .passkeyAssertion(assertion)) else {
            Issue.record("not a passkey")
            return
        }
        #expect(credential.rawId.bytes == [1])
        let appleID = AppleIDCredential(user: "u", state: "s1", identityToken: "t", authorizationCode: nil)
        #expect(try sheet.outcome(for: .appleID(appleID)) == .appleID(appleID))
        let password = PasswordCredential(user: "alice", password: "correct horse battery staple")
        #expect(try sheet.outcome(for: .password(password)) == .password(password))

        let passwordsOnly = try SignInSheetRequest(appleID: nil, includesPasswords: true)
        #expect(throws: AuthenticatorError.self) { try passwordsOnly.outcome(for: .appleID(appleID)) }
        #expect(throws: AuthenticatorError.self) { try passwordsOnly.outcome(for: .passkeyAssertion(assertion)) }
        #expect(throws: AuthenticatorError(.invalidOptions, "the sign-in sheet offers no way in")) {
            try SignInSheetRequest(appleID: nil, includesPasswords: false)
        }
    }

    @Test("a saved password never shows in descriptions, debug output or dumps")
    func passwordRedaction() {
        let password = PasswordCredential(user: "alice", password: "hunter2-secret")
        var dumped = ""
        dump(password, to: &dumped)
        for text in [String(describing: password), String(reflecting: password), "\(password)", dumped] {
            #expect(!text.contains("hunter2-secret") && text.contains("alice"))
        }
        #expect(!String(describing: SignInOutcome.password(password)).contains("hunter2-secret"))
    }

    @Test("a result of the wrong kind is a failed ceremony, not a crash")
    func wrongKind() {
        let password = AuthorizationResult.password(PasswordCredential(user: "a", password: "b"))
        #expect(throws: AuthenticatorError.self) { try password.registration() }
        #expect(throws: AuthenticatorError.self) { try password.assertion() }
        #expect(throws: AuthenticatorError.self) { try password.appleID(for: SignInWithAppleRequest()) }
    }
}
