import Foundation

/// Maps `ASAuthorizationError` codes (domain `com.apple.AuthenticationServices.AuthorizationError`) to the
/// stable ``AuthenticatorError/Code``s, so an iOS app and the hybrid bridge report the same codes as the
/// virtual authenticator.
public enum AuthorizationErrorMapping {
    /// `ASAuthorizationErrorDomain`.
    public static let domain = "com.apple.AuthenticationServices.AuthorizationError"

    /// The stable error for an error AuthenticationServices reported (an `NSError` in `ASAuthorizationErrorDomain`, or
    /// any other); an ``AuthenticatorError`` stays as it is.
    public static func error(_ error: any Error) -> AuthenticatorError {
        if let error = error as? AuthenticatorError { return error }
        let nsError = error as NSError
        return self.error(domain: nsError.domain, code: nsError.code, description: nsError.localizedDescription)
    }

    /// The error for an `NSError` from AuthenticationServices (`domain`, `code`), with its description.
    /// An error from another domain is ``AuthenticatorError/Code/failed``.
    public static func error(domain: String, code: Int, description: String) -> AuthenticatorError {
        guard domain == Self.domain else { return AuthenticatorError(.failed, "\(domain) \(code): \(description)") }
        return AuthenticatorError(self.code(forAuthorizationErrorCode: code), description)
    }

    /// The stable code for each `ASAuthorizationError.Code` raw value (iOS 26 / macOS 26 SDK):
    ///
    /// | code | `ASAuthorizationError` | stable code |
    /// |---|---|---|
    /// | 1000 | `unknown` | `failed` |
    /// | 1001 | `canceled` | `cancelled` |
    /// | 1002 | `invalidResponse` | `failed` |
    /// | 1003 | `notHandled` | `unsupported` |
    /// | 1004 | `failed` | `notAllowed` (associated domain not verified, policy: WebAuthn's `NotAllowedError`) |
    /// | 1005 | `notInteractive` | `noCredentials` (`preferImmediatelyAvailableCredentials` found none) |
    /// | 1006 | `matchedExcludedCredential` | `excludedCredential` |
    /// | 1007 | `credentialImport` | `credentialExchangeFailed` |
    /// | 1008 | `credentialExport` | `credentialExchangeFailed` |
    /// | 1009 | `preferSignInWithApple` | `preferSignInWithApple` |
    /// | 1010 | `deviceNotConfiguredForPasskeyCreation` | `deviceNotConfigured` |
    ///
    /// A code a later SDK adds is `failed`.
    public static func code(forAuthorizationErrorCode code: Int) -> AuthenticatorError.Code {
        switch code {
        case 1001: .cancelled
        case 1003: .unsupported
        case 1004: .notAllowed
        case 1005: .noCredentials
        case 1006: .excludedCredential
        case 1007, 1008: .credentialExchangeFailed
        case 1009: .preferSignInWithApple
        case 1010: .deviceNotConfigured
        default: .failed  // 1000 unknown, 1002 invalidResponse, and codes this version does not know
        }
    }
}
