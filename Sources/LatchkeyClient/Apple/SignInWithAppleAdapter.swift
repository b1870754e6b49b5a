#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

// Apple platforms only; not compiled on Linux. The nonce, scopes and state mapping are in
// SignInWithAppleRequest.swift and AppleIDCredentialState.swift, tested there.

extension SignInWithAppleRequest {
    /// The AuthenticationServices requests for this request: the Apple ID request, and the saved-password
    /// request when ``includesPasswordRequest`` is set. Run them with an `ASAuthorizationController`.
    public func authorizationRequests() -> [ASAuthorizationRequest] {
        let appleID = ASAuthorizationAppleIDProvider().createRequest()
        appleID.requestedScopes = scopes.map { ASAuthorization.Scope(rawValue: $0.rawValue) }
        appleID.nonce = nonce.sha256
        appleID.state = state
        guard includesPasswordRequest else { return [appleID] }
        return [appleID, ASAuthorizationPasswordProvider().createRequest()]
    }
}

extension AppleIDCredentialState {
    /// The state of the credential for `userID`, from AuthenticationServices.
    public static func current(forUserID userID: String) async throws -> AppleIDCredentialState? {
        let state = try await ASAuthorizationAppleIDProvider().credentialState(forUserID: userID)
        return AppleIDCredentialState(rawValue: state.rawValue)
    }

    /// `ASAuthorizationAppleIDProvider.credentialRevokedNotification`.
    public static var revocationNotification: Notification.Name {
        ASAuthorizationAppleIDProvider.credentialRevokedNotification
    }
}
#endif
