import Foundation
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// 401 `reauth.required`: a sensitive change asked for with a session whose user has not proved who they are within
/// the window, with how to do it (the error body's `reauthentication`).
struct ReauthenticationRequired: Error, Sendable {
    let options: ReauthenticationOptions
}

/// Re-authentication before sensitive changes: adding or removing a passkey, setting or removing the password,
/// deleting the account, signing out everywhere. Each needs a session whose ``LatchkeyStore/StoredSession/verifiedAt``
/// is within ``window``: a sign-in that verified the user (a passkey with user verification — or, for a security key that
/// registered without it, with its touch — the password, Sign in with Apple, a new account), or a re-authentication,
/// which replaces the session with a new verified one. A stolen session
/// token alone then cannot take the account over.
struct Reauthentication: Sendable {
    let window: Duration
    let ceremonies: CeremonyService
    let accounts: AccountService
    /// Whether password accounts are on (`--password-sign-in`), so a password may re-authenticate.
    let passwordsEnabled: Bool

    /// Returns when the caller's session proved who they are within the window; otherwise throws
    /// ``ReauthenticationRequired`` with the options to do it (a passkey ceremony begun for the caller's passkeys).
    func require(_ caller: SignedIn, now: Date = Date()) async throws {
        guard !isRecent(caller, now: now) else { return }
        throw ReauthenticationRequired(options: try await options(for: caller, now: now))
    }

    /// Whether the caller's session proved who they are within the window.
    func isRecent(_ caller: SignedIn, now: Date = Date()) -> Bool {
        guard let verifiedAt = caller.session.verifiedAt else { return false }
        return now.timeIntervalSince(verifiedAt) < TimeInterval(window.components.seconds)
    }

    /// How the caller can re-authenticate: a passkey ceremony when the account has a passkey, the password when it
    /// has one, Sign in with Apple when an Apple ID is linked.
    func options(for caller: SignedIn, now: Date = Date()) async throws -> ReauthenticationOptions {
        let methods = try await accounts.signInMethods(of: caller.user.id)
        let passkey = methods.passkeys > 0 ? try await ceremonies.beginReauthentication(of: caller.user, now: now) : nil
        return ReauthenticationOptions(
            passkey: passkey, password: methods.password && passwordsEnabled, apple: methods.apple)
    }

    /// Re-authenticates the caller with one of their passkeys and user verification: a new verified session, and the
    /// caller's ends.
    func reauthenticate(
        _ caller: SignedIn, ticket: String, credential: AuthenticationCredential, client: SessionClient,
        now: Date = Date()
    ) async throws -> CeremonyOutcome {
        let outcome = try await ceremonies.finishReauthentication(
            ticket: ticket, credential: credential, of: caller.user, client: client, now: now)
        try await accounts.signOut(caller)
        return outcome
    }
}
