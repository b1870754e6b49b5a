// expect-error: type 'ASAuthorizationPlatformPublicKeyCredentialAssertion' does not conform to protocol 'PlatformAssertionResult'
// expect-note: candidate has non-matching type 'Data?'
//
// The old PlatformCredentials.swift required `var rawAuthenticatorData: Data { get }` (and `signature`, `userID`)
// and made the AuthenticationServices assertion classes conform in an empty extension. The SDK declares those
// properties `Data!` (implicitly unwrapped: type `Data?`), which does not satisfy a `Data` requirement.
import AuthenticationServices
import Foundation

protocol PlatformAssertionResult {
    var credentialID: Data { get }
    var rawClientDataJSON: Data { get }
    var rawAuthenticatorData: Data { get }
    var signature: Data { get }
    var userID: Data { get }
}

@available(iOS 15.0, macOS 12.0, *)
extension ASAuthorizationPlatformPublicKeyCredentialAssertion: PlatformAssertionResult {}
