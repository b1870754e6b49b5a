import AuthenticationServices
import LatchkeyAPI
import LatchkeyClient

/// One sheet for every way in: the user's Apple ID, a password saved for the app, or a passkey. A password
/// sign-in is followed by the automatic passkey upgrade, so the next sign-in can be a passkey.
@MainActor
final class SignInScreen {
    private let sheet: SignInSheet
    private let passkeys: PasskeysManager
    private let client: NativeClient
    /// Set when the quiet upgrade could not make a passkey: show an "Add a passkey" button (`client.addPasskey`).
    private(set) var offersPasskey = false

    init(client: NativeClient, window: ASPresentationAnchor) {
        self.client = client
        sheet = SignInSheet(anchor: window)
        passkeys = PasskeysManager(relyingPartyIdentifier: "example.com", anchor: window)
    }

    enum Result {
        case signedIn(UserProfile)
        /// Nothing on this device: show the app's own sign-in form.
        case showSignInForm
    }

    /// At launch, `immediatelyAvailable` shows the sheet only when this device holds a credential for the app.
    func signIn(immediatelyAvailable: Bool) async throws(LatchkeyClientError) -> Result {
        let started = try await client.authenticationOptions(AuthenticationOptionsRequest())  // username-less
        let apple = SignInWithAppleRequest(nonce: SignInWithAppleNonce(raw: try await client.appleNonce().nonce))
        let outcome: SignInOutcome
        let appleBody: AppleSignInRequest?
        do throws(AuthenticatorError) {
            let request = try SignInSheetRequest(
                appleID: apple, includesPasswords: true, passkeyOptions: started.options)
            outcome = try await sheet.present(request, immediatelyAvailable: immediatelyAvailable)
            if case .appleID(let credential) = outcome {
                appleBody = try apple.signInRequest(for: credential)
            } else {
                appleBody = nil
            }
        } catch  where error.code == .noCredentials || error.code == .cancelled {
            return .showSignInForm
        } catch {
            throw .authenticator(error)
        }
        switch outcome {
        case .passkey(let credential):
            let session = try await client.authenticationVerify(
                AuthenticationVerifyRequest(ticket: started.ticket, credential: credential))
            return .signedIn(session.user)
        case .appleID:
            guard let appleBody else { return .showSignInForm }
            return .signedIn(try await client.signInWithApple(appleBody).user)
        case .password(let saved):
            let session = try await client.passwordSignIn(
                PasswordSignInRequest(username: saved.user, password: saved.password))
            if let upgrade = session.passkeyUpgrade { await upgradeQuietly(upgrade) }
            return .signedIn(session.user)
        }
    }

    /// The password manager makes a passkey without a prompt (iOS 18 / macOS 15), or nothing happens and the app
    /// offers one.
    private func upgradeQuietly(_ upgrade: RegistrationOptionsResponse) async {
        do {
            try await client.completePasskeyUpgrade(upgrade, with: passkeys)
        } catch {
            offersPasskey = true
        }
    }
}
