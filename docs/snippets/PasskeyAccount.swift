import AuthenticationServices
import Foundation
import LatchkeyAPI
import LatchkeyClient
import WebAuthn

/// Sign-up, sign-in and passkey management for an app whose server runs `latchkey serve`.
@MainActor
final class PasskeyAccount {
    private let passkeys: PasskeysManager
    private let client: NativeClient

    /// `server` is the Latchkey server (`https://example.com`); `window` is where the passkey sheet appears.
    init(server: URL, window: ASPresentationAnchor) {
        passkeys = PasskeysManager(relyingPartyIdentifier: "example.com", anchor: window)
        // The server's answers tell the password manager which passkeys it still accepts (iOS 26 / macOS 26).
        client = NativeClient(server: server, signals: { _ = await PasskeySignalReporter.report($0) })
    }

    /// A new account with a passkey: options from the server, the system sheet, then the server verifies.
    func signUp(username: String, displayName: String) async throws(LatchkeyClientError) -> String {
        let signedUp = try await client.signUp(username: username, displayName: displayName, with: passkeys)
        return signedUp.session.user.id
    }

    /// iOS 26 / macOS 26: the passkey sign-up sheet asks for the email address (and name) and makes the passkey;
    /// the server names the account after what the user entered.
    @available(iOS 26.0, macOS 26.0, *)
    func signUpWithSheet() async throws(LatchkeyClientError) -> String {
        let started = try await client.accountCreationOptions()
        let created: AccountCreationResult
        let credential: RegistrationCredential
        do throws(AuthenticatorError) {
            created = try await passkeys.createAccount(options: started.options, acceptedContacts: [.email])
            credential = try created.credential()
        } catch {
            throw .authenticator(error)
        }
        let signedUp = try await client.accountCreationVerify(
            AccountCreationVerifyRequest(
                ticket: started.ticket, credential: credential, username: created.contact.value,
                displayName: created.displayName
            ))
        return signedUp.user.id
    }

    /// Sign-in without a username: the sheet lists this app's passkeys (and offers security keys).
    func signIn() async throws(LatchkeyClientError) -> String {
        let signedIn = try await client.signIn(with: passkeys)
        return signedIn.session.user.displayName
    }

    /// A second passkey (a security key, say) on the signed-in account.
    func addPasskey(named name: String) async throws(LatchkeyClientError) {
        try await client.addPasskey(name: name, with: passkeys)
    }

    /// The account's passkeys, with their names.
    func passkeyNames() async throws(LatchkeyClientError) -> [String] {
        try await client.passkeys().map { $0.name ?? $0.authenticatorName ?? "Passkey" }
    }

    /// The user left the screen: close the sheet; the waiting call fails with `cancelled`.
    func stop() {
        passkeys.cancel()
    }

    /// What to tell the user when a call fails.
    static func message(for error: LatchkeyClientError) -> String? {
        switch error {
        case .authenticator(let failure) where failure.code == .cancelled:
            nil  // the user closed the sheet: say nothing
        case .authenticator(let failure) where failure.code == .excludedCredential:
            "This device already has a passkey for your account."
        case .authenticator(let failure) where failure.code == .deviceNotConfigured:
            "Set up a passcode and iCloud Keychain to use passkeys."
        case .server(_, "passkey.lastCredential", _):
            "Add another way to sign in before removing this passkey."
        default:
            error.message
        }
    }
}
