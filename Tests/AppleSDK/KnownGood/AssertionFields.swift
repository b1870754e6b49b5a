// Known good: copying an assertion's fields. `rawAuthenticatorData`, `signature` and `userID` are `Data!` in the
// SDK, so they read as `Data` (force-unwrapped) where a `Data` is expected. The self-test's mutation changes
// `userID: Data!` to `Data?` in a copy of the stand-ins and checks that this file then fails to compile.
import AuthenticationServices
import Foundation

struct AssertionFields: Sendable {
    let credentialID: Data
    let clientDataJSON: Data
    let authenticatorData: Data
    let signature: Data
    let userHandle: Data
    let crossPlatform: Bool
    let largeBlob: Data?
    let prfFirst: Int?
}

@available(iOS 18.0, macOS 15.0, *)
@MainActor
func assertionFields(_ assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) -> AssertionFields {
    let userHandle: Data = assertion.userID
    var blob: Data?
    if case .read(let data)? = assertion.largeBlob?.result {
        blob = data
    }
    return AssertionFields(
        credentialID: assertion.credentialID,
        clientDataJSON: assertion.rawClientDataJSON,
        authenticatorData: assertion.rawAuthenticatorData,
        signature: assertion.signature,
        userHandle: userHandle,
        crossPlatform: assertion.attachment == .crossPlatform,
        largeBlob: blob,
        prfFirst: assertion.prf?.first.bitCount
    )
}

@available(iOS 18.0, macOS 15.0, *)
@MainActor
func assertionRequest(relyingParty: String, challenge: Data, allowed: [Data], salt: Data) -> ASAuthorizationRequest {
    let request = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
        .createCredentialAssertionRequest(challenge: challenge)
    request.allowedCredentials = allowed.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
    request.userVerificationPreference = .required
    request.largeBlob = .read
    request.prf = .inputValues(.saltInput1(salt))
    request.shouldShowHybridTransport = true
    return request
}
