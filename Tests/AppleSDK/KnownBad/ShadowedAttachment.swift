// expect-error: cannot convert return expression of type 'AuthenticatorAttachment?' to return type 'ASAuthorizationPublicKeyCredentialAttachment'
//
// The old PasskeysManager declared `var attachment: AuthenticatorAttachment? { .platform }` in an extension of
// ASAuthorizationPlatformPublicKeyCredentialAssertion, which already has
// `var attachment: ASAuthorizationPublicKeyCredentialAttachment` (iOS 16.6 / macOS 13.5). Swift accepts the
// declaration — it shadows the SDK's property in the declaring module — so the real attachment (cross-platform when
// a phone signed in over hybrid) is silently replaced by the hard-coded `.platform`, and code in that module that
// reads the SDK's property gets the wrong one. Use a differently named property.
import AuthenticationServices
import Foundation

enum AuthenticatorAttachment: Sendable {
    case platform
    case crossPlatform
}

protocol PlatformAssertionResult {
    var attachment: AuthenticatorAttachment? { get }
}

@available(iOS 16.6, macOS 13.5, *)
extension ASAuthorizationPlatformPublicKeyCredentialAssertion: PlatformAssertionResult {
    var attachment: AuthenticatorAttachment? { .platform }
}

@available(iOS 16.6, macOS 13.5, *)
@MainActor
func reportedAttachment(of assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion)
    -> ASAuthorizationPublicKeyCredentialAttachment
{
    assertion.attachment
}
