import AuthenticationServices
import LatchkeyClient
import WebAuthn

/// The delegate style of older sample apps: the screen gets the credential, or the failure with its code, in
/// delegate calls on the main actor.
@MainActor
final class PasskeyScreen: PasskeysRegistrationDelegate, PasskeysAuthenticationDelegate, PasskeysErrorDelegate {
    private let passkeys = PasskeysManager(relyingPartyIdentifier: "example.com")
    /// Where the credentials go (the app posts them, as JSON, to its server's verify endpoint).
    var registered: (RegistrationCredential) -> Void = { _ in }
    var authenticated: (AuthenticationCredential) -> Void = { _ in }

    init(window: ASPresentationAnchor) {
        passkeys.anchor = window
        passkeys.registrationDelegate = self
        passkeys.authenticationDelegate = self
        passkeys.errorDelegate = self
    }

    /// Options as the server sent them (`/attestation/options`, or `options` of `/v1/…/options`).
    func register(optionsFromServer options: PublicKeyCredentialCreationOptions) {
        passkeys.beginRegistration(options: options)
    }

    func signIn(optionsFromServer options: PublicKeyCredentialRequestOptions) {
        passkeys.beginAuthentication(options: options)
    }

    func passkeysManager(_ manager: PasskeysManager, didRegister credential: RegistrationCredential) {
        registered(credential)
    }

    func passkeysManager(_ manager: PasskeysManager, didAuthenticate credential: AuthenticationCredential) {
        authenticated(credential)
    }

    func passkeysManager(_ manager: PasskeysManager, didFailWith error: AuthenticatorError) {
        print("passkey failed: \(error.code) \(error.message)")
    }
}
