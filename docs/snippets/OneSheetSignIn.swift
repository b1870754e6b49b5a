import AuthenticationServices
import LatchkeyAPI
import LatchkeyClient

/// One sheet for every way in: the user's Apple ID, a password saved for the app, or a passkey.
@MainActor
final class SignInScreen {
    private let sheet: SignInSheet
    private let client: NativeClient

    init(client: NativeClient, window: ASPresentationAnchor) {
        self.client = client
        sheet = SignInSheet(anchor: window)
    }

    enum Result {
        case signedIn(UserProfile)
        /// The user picked a saved password: sign in with it on the server's password endpoint.
        case password(PasswordCredential)
        /// Nothing on this device: show the app's own sign-in form.
        case showSignInForm
    }

    /// At launch, `immediatelyAvailable` shows the sheet only when this device holds a credential for the app.
    func signIn(immediatelyAvailable: Bool) async throws(LatchkeyClientError) -> Result {
        let started = try await client.authenticationOptions(AuthenticationOptionsRequest())  // username-less
        let apple = SignInWithAppleRequest()
        let outcome: SignInOutcome
        let appleBody: AppleSignInRequest?
        do throws(AuthenticatorError) {
            let request = try SignInSheetRequest(appleID: apple, includesPasswords: true, passkeyOptions: started.options)
            outcome = try await sheet.present(request, immediatelyAvailable: immediatelyAvailable)
            if case .appleID(let credential) = outcome { appleBody = try apple.signInRequest(for: credential) } else { appleBody = nil }
        } catch where error.code == .noCredentials || error.code == .cancelled {
            return .showSignInForm
        } catch {
            throw .authenticator(error)
        }
        switch outcome {
        case .passkey(let credential):
            let session = try await client.authenticationVerify(AuthenticationVerifyRequest(ticket: started.ticket, credential: credential))
            return .signedIn(session.user)
        case .appleID:
            guard let appleBody else { return .showSignInForm }
            return .signedIn(try await client.signInWithApple(appleBody).user)
        case .password(let credential):
            return .password(credential)
        }
    }
}
