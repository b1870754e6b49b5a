import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// The client-data variations real clients send: the base64url-text challenge of some iOS SDKs, app
/// origins, and cross-origin iframes.
@Suite("Client data: challenge forms, origins, cross-origin")
struct ClientDataCompatibilityTests {
    static let textChallenge = Tampering(challengeAsBase64URLText: true)

    @Test("base64url-text challenge at registration: rejected by default")
    func textChallengeRegistrationRejected() async throws {
        let harness = Harness()
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Self.textChallenge)
        await expectWebAuthnError(.challengeMismatch) {
            try await harness.finishRegistration(credential, options: options)
        }
    }

    @Test("base64url-text challenge at registration: accepted with acceptsBase64URLTextChallenge")
    func textChallengeRegistrationAccepted() async throws {
        let harness = Harness { $0.acceptsBase64URLTextChallenge = true }
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Self.textChallenge)
        let registration = try await harness.finishRegistration(credential, options: options)
        #expect(registration.challengeEncoding == .base64URLText)
    }

    @Test(
        "base64url-text challenge at authentication: rejected by default, reported when accepted",
        arguments: [false, true])
    func textChallengeAuthentication(accepted: Bool) async throws {
        let harness = Harness { $0.acceptsBase64URLTextChallenge = accepted }
        let record = try await harness.registeredRecord()
        if accepted {
            let authentication = try await harness.signIn(record, tampering: Self.textChallenge)
            #expect(authentication.challengeEncoding == .base64URLText)
        } else {
            await expectWebAuthnError(.challengeMismatch) {
                try await harness.signIn(record, tampering: Self.textChallenge)
            }
        }
    }

    @Test("the standard challenge is reported as .bytes even when the compat form is accepted")
    func standardChallengeWithCompatOn() async throws {
        let harness = Harness { $0.acceptsBase64URLTextChallenge = true }
        let authentication = try await harness.signIn(try await harness.registeredRecord())
        #expect(authentication.challengeEncoding == .bytes)
    }

    static let webOrigin = "https://login.example.com"
    static let iOSOrigin = "https://example.com"
    static let androidOrigin = "android:apk-key-hash:" + Base64URL.encode(Array(repeating: 0xab, count: 32))

    @Test(
        "every listed origin works: web subdomain, iOS app, Android app",
        arguments: [webOrigin, iOSOrigin, androidOrigin])
    func listedOrigins(origin: String) async throws {
        var harness = Harness { $0.origins = [Self.webOrigin, Self.iOSOrigin, Self.androidOrigin] }
        harness.origin = origin
        let options = harness.creationOptions()
        let credential = try await harness.authenticator.register(options: options, origin: origin)
        let clientData = try CollectedClientData(bytes: credential.response.clientDataJSON.bytes)
        #expect(clientData.origin == origin)
        let record = Harness.record(try await harness.finishRegistration(credential, options: options))
        let authentication = try await harness.signIn(record)
        #expect(authentication.newSignCount == 1)
    }

    @Test(
        "an origin missing from the list fails even when it is same-site",
        arguments: [
            "https://other.example.com", "http://example.com", "https://example.com:8443",
            "android:apk-key-hash:" + Base64URL.encode(Array(repeating: 0xcd, count: 32)),
        ])
    func unlistedOrigins(origin: String) async throws {
        let harness = Harness { $0.origins = [Self.webOrigin, Self.iOSOrigin, Self.androidOrigin] }
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Tampering(origin: origin))
        await expectWebAuthnError(.originNotAllowed) {
            try await harness.finishRegistration(credential, options: options)
        }
    }

    @Test("cross-origin with a listed topOrigin is accepted, in both ceremonies")
    func crossOriginAllowed() async throws {
        let top = "https://top.example"
        let harness = Harness { $0.crossOrigin = .allow(topOrigins: [top]) }
        let options = harness.creationOptions()
        let credential = try await harness.create(options, topOrigin: top)
        let clientData = try CollectedClientData(bytes: credential.response.clientDataJSON.bytes)
        #expect(clientData.crossOrigin && clientData.topOrigin == top)
        let record = Harness.record(try await harness.finishRegistration(credential, options: options))

        let requestOptions = harness.requestOptions(allowing: [record])
        let assertion = try await harness.authenticator.authenticate(
            options: requestOptions, origin: harness.origin, topOrigin: top)
        #expect(try harness.finishAuthentication(assertion, options: requestOptions, record: record).newSignCount == 1)
    }

    @Test("cross-origin from any top origin with allowAnyTopOrigin")
    func crossOriginAnyTop() async throws {
        let harness = Harness { $0.crossOrigin = .allowAnyTopOrigin }
        let options = harness.creationOptions()
        let credential = try await harness.create(options, topOrigin: "https://anyone.example")
        _ = try await harness.finishRegistration(credential, options: options)
    }

    @Test("crossOrigin true without a topOrigin passes an allow list (nothing to check)")
    func crossOriginWithoutTop() async throws {
        let harness = Harness { $0.crossOrigin = .allow(topOrigins: ["https://top.example"]) }
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Tampering(crossOrigin: true))
        _ = try await harness.finishRegistration(credential, options: options)
    }

    @Test("an additional RP ID's hash is accepted (RP ID migration)")
    func additionalRPID() async throws {
        let harness = Harness { $0.additionalRPIDs = ["old.example"] }
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Tampering(rpID: "old.example"))
        _ = try await harness.finishRegistration(credential, options: options)
    }

    @Test("an rpIdHash of no accepted RP ID is refused, and the message names every accepted one")
    func unknownRPIDNamesTheAcceptedOnes() async throws {
        let harness = Harness { $0.additionalRPIDs = ["old.example"] }
        let options = harness.creationOptions()
        let credential = try await harness.create(options, tampering: Tampering(rpID: "elsewhere.example"))
        let error = await #expect(throws: WebAuthnError.self) {
            _ = try await harness.finishRegistration(credential, options: options)
        }
        #expect(error?.code == .rpIdHashMismatch)
        #expect(error?.message.contains("(\(Harness.rpID), old.example)") == true, "\(error.map { "\($0)" } ?? "")")
    }
}
