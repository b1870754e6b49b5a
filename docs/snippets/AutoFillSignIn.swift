#if canImport(UIKit)
import LatchkeyAPI
import LatchkeyClient
import UIKit
import WebAuthn

/// iOS: passkeys offered in the QuickType bar of the username field while the sign-in screen is up.
/// The field needs `textContentType = .username`; the app needs the `webcredentials:example.com` associated domain.
@MainActor
final class AutoFillSignIn {
    private let passkeys = PasskeysManager(relyingPartyIdentifier: "example.com")
    private let client: NativeClient
    private var waiting: Task<Void, Never>?

    init(client: NativeClient, usernameField: UITextField) {
        self.client = client
        usernameField.textContentType = .username
    }

    /// Call when the sign-in screen appears.
    func start(onSignedIn: @escaping @MainActor (String) -> Void) {
        waiting = Task {
            do throws(LatchkeyClientError) {
                let started = try await client.authenticationOptions(AuthenticationOptionsRequest())
                let credential: AuthenticationCredential
                do throws(AuthenticatorError) {
                    credential = try await passkeys.authenticateWithAutoFill(options: started.options)
                } catch {
                    throw .authenticator(error)
                }
                let session = try await client.authenticationVerify(
                    AuthenticationVerifyRequest(ticket: started.ticket, credential: credential)
                )
                onSignedIn(session.user.displayName)
            } catch {
                // `cancelled` after stop(): the user went another way.
            }
        }
    }

    /// Call when the user types a name, picks another way in, or leaves the screen.
    func stop() {
        passkeys.cancel()
        waiting = nil
    }
}
#endif
