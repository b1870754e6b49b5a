#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

extension SignInWithAppleRequest {
    /// The `ASAuthorizationAppleIDRequest`: scopes, the SHA-256 of the nonce, and the state.
    @MainActor
    public func authorizationRequest() -> ASAuthorizationAppleIDRequest {
        let request = ASAuthorizationAppleIDProvider().createRequest()
        request.requestedScopes = scopes.map { ASAuthorization.Scope(rawValue: $0.rawValue) }
        request.nonce = nonce.sha256
        request.state = state
        return request
    }
}

extension AppleIDCredentialState {
    /// The state of the credential for `userID`, from AuthenticationServices.
    /// - Throws: the error AuthenticationServices reports (no network, for example): keep the session then.
    public static func current(forUserID userID: String) async throws -> AppleIDCredentialState? {
        let state = try await ASAuthorizationAppleIDProvider().credentialState(forUserID: userID)
        return AppleIDCredentialState(rawValue: state.rawValue)
    }
}
#endif
