import WebAuthn

/// Something that makes and uses passkeys for the client: the platform (AuthenticationServices on Apple
/// systems), a security key, or ``VirtualAuthenticatorAdapter`` everywhere else.
///
/// An implementation knows the origin it acts for (a web origin, or an app whose associated domains the
/// platform checks), so callers pass only the relying party's options.
public protocol Authenticator: Sendable {
    /// Creates a credential for the options, as `navigator.credentials.create()` does.
    /// - Throws: ``AuthenticatorError`` with a stable ``AuthenticatorError/Code``.
    func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError) -> RegistrationCredential

    /// Signs an assertion for the options, as `navigator.credentials.get()` does.
    /// - Throws: ``AuthenticatorError`` with a stable ``AuthenticatorError/Code``.
    func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError) -> AuthenticationCredential
}
