#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

/// Reports ``PasskeySignal``s to the password manager through `ASCredentialUpdater` (iOS 26 / macOS 26).
public enum PasskeySignalReporter {
    /// Reports `signal`; returns false on a system without `ASCredentialUpdater`, where there is nothing to tell.
    /// - Throws: ``AuthenticatorError/Code/failed`` with the system's message when the report fails.
    @discardableResult
    public static func report(_ signal: PasskeySignal) async throws(AuthenticatorError) -> Bool {
        guard #available(iOS 26.0, macOS 26.0, *) else { return false }
        let updater = ASCredentialUpdater()
        do {
            switch signal {
            case .unknownCredential(let rpID, let credentialID):
                try await updater.reportUnknownPublicKeyCredential(
                    relyingPartyIdentifier: rpID, credentialID: credentialID)
            case .allAcceptedCredentials(let rpID, let userHandle, let credentialIDs):
                try await updater.reportAllAcceptedPublicKeyCredentials(
                    relyingPartyIdentifier: rpID, userHandle: userHandle, acceptedCredentialIDs: credentialIDs
                )
            case .currentUserDetails(let rpID, let userHandle, let name, _):
                try await updater.reportPublicKeyCredentialUpdate(
                    relyingPartyIdentifier: rpID, userHandle: userHandle, newName: name)
            }
        } catch {
            throw AuthorizationErrorMapping.error(error)
        }
        return true
    }

    /// Reports each of `signals` in order, stopping at nothing: a failed report is returned, not thrown, so the
    /// sign-in that produced them goes on.
    public static func report(_ signals: [PasskeySignal]) async -> [PasskeySignal: AuthenticatorError] {
        var failures: [PasskeySignal: AuthenticatorError] = [:]
        for signal in signals {
            do throws(AuthenticatorError) {
                try await report(signal)
            } catch {
                failures[signal] = error
            }
        }
        return failures
    }
}
#endif
