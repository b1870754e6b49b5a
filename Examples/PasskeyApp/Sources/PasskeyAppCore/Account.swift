import AuthenticationServices
import Combine
import Foundation
import LatchkeyAPI
import LatchkeyClient

/// The signed-in user and everything the screens do with the server: one place that talks to `latchkey serve` through
/// `NativeClient` and to the system's sheets through LatchkeyClient's Apple adapters. The SwiftUI views only show it.
@MainActor
public final class Account: ObservableObject {
    public enum State: Equatable {
        /// Restoring a saved session or waiting for the server.
        case starting
        case signedOut
        case signedIn(UserProfile)
    }

    @Published public private(set) var state: State = .starting
    @Published public private(set) var passkeys: [PasskeySummary] = []
    /// What went wrong, for an alert; nil when there is nothing to say (the user closed a sheet).
    @Published public var problem: String?
    /// Set when a password sign-in could not quietly add a passkey: the passkeys screen offers one.
    @Published public private(set) var offersPasskey = false

    private let client: NativeClient?
    private let relyingPartyIdentifier: String
    private var appleUserID: String?
    private var monitor: AppleIDCredentialMonitor?

    public init(server: URL? = AppConfiguration.server) {
        client = server.map { NativeClient(server: $0, signals: { _ = await PasskeySignalReporter.report($0) }) }
        relyingPartyIdentifier = server?.host ?? ""
    }

    // MARK: Launch

    /// At launch: the saved session if the server still knows it (and, after Sign in with Apple, the Apple ID is still
    /// authorized); otherwise the one sign-in sheet, shown only if this device has a credential for the app.
    public func launch() async {
        guard let client else {
            state = .signedOut
            problem = "Set LatchkeyServerURL in the app's Info.plist to your latchkey serve address."
            return
        }
        guard let saved = SavedSession.load() else {
            state = .signedOut
            await signInWithSheet(immediatelyAvailable: true)
            return
        }
        await client.setSessionToken(saved.token)
        do {
            let user = try await client.me()
            appleUserID = saved.appleUserID
            signedIn(user)
        } catch .server(status: 401, _, _) {
            SavedSession.clear()
            state = .signedOut
        } catch {
            state = .signedOut
            problem = error.message
        }
    }

    // MARK: Signing in

    /// The one sheet for every way in: a passkey, a password saved for the app, or the user's Apple ID.
    /// `immediatelyAvailable` shows it only when the device holds one of them (at launch).
    public func signInWithSheet(immediatelyAvailable: Bool = false) async {
        guard let client else { return }
        await run {
            let started = try await client.authenticationOptions(AuthenticationOptionsRequest())
            let apple = SignInWithAppleRequest(nonce: SignInWithAppleNonce(raw: try await client.appleNonce().nonce))
            let outcome: SignInOutcome
            do throws(AuthenticatorError) {
                let request = try SignInSheetRequest(
                    appleID: apple, includesPasswords: true, passkeyOptions: started.options)
                outcome = try await SignInSheet(anchor: presentationAnchor()).present(
                    request, immediatelyAvailable: immediatelyAvailable)
            } catch {
                throw LatchkeyClientError.authenticator(error)
            }
            switch outcome {
            case .passkey(let credential):
                let session = try await client.authenticationVerify(
                    AuthenticationVerifyRequest(ticket: started.ticket, credential: credential))
                signedIn(session)
            case .appleID(let credential):
                let body: AppleSignInRequest
                do throws(AuthenticatorError) {
                    body = try apple.signInRequest(for: credential)
                } catch {
                    throw LatchkeyClientError.authenticator(error)
                }
                signedIn(try await client.signInWithApple(body), appleUserID: credential.user)
            case .password(let saved):
                let session = try await client.passwordSignIn(
                    PasswordSignInRequest(username: saved.user, password: saved.password))
                signedIn(session)
                if let upgrade = session.passkeyUpgrade {
                    // The password manager makes a passkey without a prompt, or the passkeys screen offers one.
                    do {
                        try await client.completePasskeyUpgrade(upgrade, with: passkeyManager())
                    } catch {
                        offersPasskey = true
                    }
                }
            }
        }
    }

    /// A new account whose first way in is a passkey made on this device.
    public func signUp(username: String) async {
        guard let client else { return }
        await run {
            let signedUp = try await client.signUp(username: username, displayName: username, with: passkeyManager())
            signedIn(signedUp.session)
        }
    }

    /// Ends the session on the server and on this device.
    public func signOut() async {
        if let client { try? await client.logout() }
        signedOut()
    }

    // MARK: Passkeys

    public func refreshPasskeys() async {
        guard let client else { return }
        await run { passkeys = try await client.passkeys() }
    }

    public func addPasskey() async {
        guard let client else { return }
        await run {
            _ = try await client.addPasskey(with: passkeyManager())
            offersPasskey = false
            passkeys = try await client.passkeys()
        }
    }

    public func rename(_ passkey: PasskeySummary, to name: String) async {
        guard let client else { return }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        await run {
            _ = try await client.renamePasskey(id: passkey.id, to: trimmed.isEmpty ? nil : trimmed)
            passkeys = try await client.passkeys()
        }
    }

    public func remove(_ passkey: PasskeySummary) async {
        guard let client else { return }
        await run {
            try await client.deletePasskey(id: passkey.id)
            passkeys = try await client.passkeys()
        }
    }

    // MARK: Helpers

    private func passkeyManager() -> PasskeysManager {
        PasskeysManager(relyingPartyIdentifier: relyingPartyIdentifier, anchor: presentationAnchor())
    }

    private func signedIn(_ session: SessionResponse, appleUserID: String? = nil) {
        self.appleUserID = appleUserID
        SavedSession(token: session.session.token, appleUserID: appleUserID).save()
        signedIn(session.user)
    }

    private func signedIn(_ user: UserProfile) {
        state = .signedIn(user)
        watchAppleID()
    }

    private func signedOut() {
        monitor?.stop()
        monitor = nil
        appleUserID = nil
        passkeys = []
        offersPasskey = false
        SavedSession.clear()
        state = .signedOut
    }

    /// Apple asks apps that offer Sign in with Apple to check the credential's state at launch and in the foreground,
    /// and to sign out when the user revoked it.
    private func watchAppleID() {
        monitor?.stop()
        monitor = nil
        guard let appleUserID else { return }
        let monitor = AppleIDCredentialMonitor(userID: appleUserID) { [weak self] state in
            guard state.requiresSignOut, let self else { return }
            Task { await self.signOut() }
        }
        monitor.start()
        self.monitor = monitor
    }

    /// Runs calls to the server; a failure becomes ``problem``, except the user closing a sheet.
    private func run(_ work: () async throws -> Void) async {
        do {
            try await work()
        } catch let error as LatchkeyClientError {
            switch error {
            case .authenticator(let failure) where failure.code == .cancelled || failure.code == .noCredentials:
                return
            case .server(status: 401, _, _):
                signedOut()
            default:
                problem = Self.message(for: error)
            }
        } catch {
            problem = error.localizedDescription
        }
    }

    public static func message(for error: LatchkeyClientError) -> String {
        switch error {
        case .authenticator(let failure) where failure.code == .excludedCredential:
            "This device already has a passkey for your account."
        case .authenticator(let failure) where failure.code == .deviceNotConfigured:
            "Set up a passcode and iCloud Keychain to use passkeys."
        case .server(_, "passkey.lastCredential", _):
            "Add another way to sign in before removing this passkey."
        case .server(_, "user.nameTaken", _), .server(_, "user.nameConfusable", _):
            "That name is taken. Sign in instead, or choose another name."
        default:
            error.message
        }
    }
}
