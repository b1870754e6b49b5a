import WebAuthn

/// Something that makes and uses passkeys for the client: the platform (AuthenticationServices on Apple
/// systems), a security key, or the software authenticator (`VirtualAuthenticatorAdapter`, in the
/// `VirtualAuthenticatorClient` product) everywhere else.
///
/// An implementation knows the origin it acts for (a web origin, or an app whose associated domains the
/// platform checks), so callers pass only the relying party's options.
public protocol Authenticator: Sendable {
    /// Creates a credential for the options, as `navigator.credentials.create()` does.
    /// - Throws: ``AuthenticatorError`` with a stable ``AuthenticatorError/Code``.
    func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential

    /// Signs an assertion for the options, as `navigator.credentials.get()` does.
    /// - Throws: ``AuthenticatorError`` with a stable ``AuthenticatorError/Code``.
    func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError)
        -> AuthenticationCredential

    /// Creates a credential with conditional mediation, as `navigator.credentials.create({mediation: "conditional"})`
    /// does: the automatic passkey upgrade right after a password sign-in, made by the password manager without a
    /// prompt (so without user presence) or not at all. Only a registration ceremony begun as conditional accepts it.
    /// - Throws: ``AuthenticatorError/Code/unsupported`` where the authenticator cannot (the default): offer an
    ///   "Add a passkey" button, which calls ``register(options:)``, instead.
    func registerConditionally(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential
}

extension Authenticator {
    /// The default: the authenticator cannot create passkeys with conditional mediation (``AuthenticatorError/Code/unsupported``).
    public func registerConditionally(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential
    {
        throw AuthenticatorError(.unsupported, "this authenticator cannot create passkeys with conditional mediation")
    }
}
