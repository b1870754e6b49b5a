import AuthenticationServices
import LatchkeyAPI
import LatchkeyClient

/// Sign in with Apple against `latchkey serve`: the sheet, the server's session, and the credential-state watch
/// Apple asks for (at launch, on foreground, on revocation).
@MainActor
final class AppleAccount {
    private let sheet: SignInSheet
    private let client: NativeClient
    private var monitor: AppleIDCredentialMonitor?

    init(client: NativeClient, window: ASPresentationAnchor) {
        self.client = client
        sheet = SignInSheet(anchor: window)
    }

    /// Shows the Apple ID sheet and signs in to the server; returns the Apple user ID to keep (e.g. in the Keychain).
    func signIn() async throws(LatchkeyClientError) -> String {
        // Full name and email, a fresh state, and a single-use nonce from the server (good for ten minutes).
        let request = SignInWithAppleRequest(nonce: SignInWithAppleNonce(raw: try await client.appleNonce().nonce))
        let credential: AppleIDCredential
        let body: AppleSignInRequest
        do throws(AuthenticatorError) {
            credential = try await sheet.signInWithApple(request)
            body = try request.signInRequest(for: credential)  // identity token, code, raw nonce, name, email
        } catch {
            throw .authenticator(error)
        }
        _ = try await client.signInWithApple(body)
        watch(userID: credential.user)
        return credential.user
    }

    /// Call at launch with the saved Apple user ID.
    func watch(userID: String) {
        monitor = AppleIDCredentialMonitor(userID: userID) { [weak self] state in
            if state.requiresSignOut { self?.signOut() }
        }
        monitor?.start()
    }

    private func signOut() {
        monitor?.stop()
        Task { try? await client.logout() }
    }
}
