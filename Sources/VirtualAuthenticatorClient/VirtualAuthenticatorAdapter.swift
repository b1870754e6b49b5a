import LatchkeyClient
import VirtualAuthenticator
import WebAuthn

/// Drives a `VirtualAuthenticator` as an ``Authenticator`` for one origin, so the
/// client, the bridge and the command line run real ceremonies anywhere.
public struct VirtualAuthenticatorAdapter: Authenticator {
    /// The software authenticator.
    public let authenticator: VirtualAuthenticator
    /// The origin the client data names (`https://example.com`).
    public let origin: String
    /// Which credential answers an authentication when several fit (the account chooser).
    public let choice: CredentialChoice

    /// An adapter for `authenticator` acting for `origin`, picking credentials by `choice`.
    public init(_ authenticator: VirtualAuthenticator, origin: String, choice: CredentialChoice = .mostRecent) {
        self.authenticator = authenticator
        self.origin = origin
        self.choice = choice
    }

    /// The same authenticator and origin, choosing credentials by `choice`.
    public func choosing(_ choice: CredentialChoice) -> VirtualAuthenticatorAdapter {
        VirtualAuthenticatorAdapter(authenticator, origin: origin, choice: choice)
    }

    /// Creates a credential in the virtual authenticator for this adapter's origin.
    public func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential
    {
        do {
            return try await authenticator.register(options: options, origin: origin)
        } catch {
            throw Self.map(error)
        }
    }

    /// A conditional create as a password manager makes it: at once, without user presence (the UP flag clear).
    public func registerConditionally(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential
    {
        do {
            return try await authenticator.register(
                options: options, origin: origin, tampering: Tampering(clearUserPresence: true))
        } catch {
            throw Self.map(error)
        }
    }

    /// Signs in with a credential of the virtual authenticator for this adapter's origin.
    public func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError)
        -> AuthenticationCredential
    {
        do {
            return try await authenticator.authenticate(options: options, origin: origin, choice: choice)
        } catch {
            throw Self.map(error)
        }
    }

    /// The stable code for each way the virtual authenticator refuses, following the `DOMException` a
    /// browser raises for the same case.
    static func map(_ error: VirtualAuthenticatorError) -> AuthenticatorError {
        let code: AuthenticatorError.Code =
            switch error {
            case .unsupportedAlgorithm: .unsupported
            case .excludedCredentialExists: .excludedCredential
            case .noMatchingCredential: .noCredentials
            case .selectionCancelled: .cancelled
            case .userVerificationUnavailable, .residentKeyUnavailable: .notAllowed
            case .rpIDNotValidForOrigin: .invalidOptions
            case .keyGenerationFailed, .signingFailed, .storedKeyMalformed, .certificateIssuanceFailed, .storeFailed:
                .failed
            }
        return AuthenticatorError(code, error.description)
    }
}
