// expect-error: sending 'authorization' risks causing data races
//
// The old PasskeysManager implemented the @MainActor delegate protocol with `nonisolated` methods and moved the
// (non-Sendable) ASAuthorization back onto the main actor. ASAuthorizationControllerDelegate is @MainActor in the
// iOS 18+ / macOS 15+ SDKs: implement the methods on the main actor (no `nonisolated`), and nothing is sent.
import AuthenticationServices
import Foundation

@MainActor
final class Delegate: NSObject, ASAuthorizationControllerDelegate {
    var credential: (any ASAuthorizationCredential)?

    nonisolated func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        Task { @MainActor in
            self.credential = authorization.credential
        }
    }
}
