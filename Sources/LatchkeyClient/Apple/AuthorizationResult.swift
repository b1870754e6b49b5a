import WebAuthn

/// What one `ASAuthorizationController` run produced, copied out of the SDK's credential classes on the main actor
/// (`AuthorizationResult(copying:)` in the AuthenticationServices adapter) so it can cross to any caller.
enum AuthorizationResult: Sendable, Hashable {
    case passkeyRegistration(PlatformRegistrationResult)
    case passkeyAssertion(PlatformAssertionResult)
    case appleID(AppleIDCredential)
    case password(PasswordCredential)
    case accountCreation(AccountCreationResult)

    /// The registration, or ``AuthenticatorError/Code/failed`` for any other kind of credential.
    func registration() throws(AuthenticatorError) -> RegistrationCredential {
        guard case .passkeyRegistration(let result) = self else { throw unexpected("a passkey registration") }
        return try PlatformCredentialMapping.registration(result)
    }

    /// The assertion, or ``AuthenticatorError/Code/failed`` for any other kind of credential.
    func assertion() throws(AuthenticatorError) -> AuthenticationCredential {
        guard case .passkeyAssertion(let result) = self else { throw unexpected("a passkey assertion") }
        return try PlatformCredentialMapping.assertion(result)
    }

    /// The passkey sign-up sheet's result, or ``AuthenticatorError/Code/failed`` for any other kind of credential.
    func accountCreation() throws(AuthenticatorError) -> AccountCreationResult {
        guard case .accountCreation(let result) = self else { throw unexpected("a passkey account creation") }
        return result
    }

    /// The Apple ID credential, checked against the request's `state`.
    func appleID(for request: SignInWithAppleRequest) throws(AuthenticatorError) -> AppleIDCredential {
        guard case .appleID(let credential) = self else { throw unexpected("a Sign in with Apple credential") }
        return try request.checked(credential)
    }

    private func unexpected(_ expected: String) -> AuthenticatorError {
        AuthenticatorError(.failed, "AuthenticationServices returned \(kind) where \(expected) was expected")
    }

    private var kind: String {
        switch self {
        case .passkeyRegistration: "a passkey registration"
        case .passkeyAssertion: "a passkey assertion"
        case .appleID: "a Sign in with Apple credential"
        case .password: "a saved password"
        case .accountCreation: "a passkey account creation"
        }
    }
}
