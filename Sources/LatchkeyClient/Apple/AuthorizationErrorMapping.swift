/// Maps `ASAuthorizationError` codes (domain `com.apple.AuthenticationServices.AuthorizationError`) to the
/// stable ``AuthenticatorError/Code``s, so an iOS app and the hybrid bridge report the same codes as the
/// virtual authenticator.
public enum AuthorizationErrorMapping {
    /// `ASAuthorizationError.errorDomain`.
    public static let domain = "com.apple.AuthenticationServices.AuthorizationError"

    /// The code for an `NSError` from AuthenticationServices (`domain`, `code`), with its description.
    public static func error(domain: String, code: Int, description: String) -> AuthenticatorError {
        guard domain == Self.domain else { return AuthenticatorError(.failed, description) }
        return AuthenticatorError(self.code(forAuthorizationErrorCode: code), description)
    }

    /// `ASAuthorizationError.Code` raw values: 1000 unknown, 1001 canceled, 1002 invalidResponse,
    /// 1003 notHandled, 1004 failed, 1005 notInteractive, 1006 matchedExcludedCredential.
    public static func code(forAuthorizationErrorCode code: Int) -> AuthenticatorError.Code {
        switch code {
        case 1001: .cancelled
        // Not interactive: with `preferImmediatelyAvailableCredentials` there is no passkey to offer.
        case 1005: .noCredentials
        case 1006: .excludedCredential
        // Failed: the platform refused (associated domain not verified, policy) — WebAuthn's NotAllowedError.
        case 1004: .notAllowed
        case 1003: .unsupported
        default: .failed
        }
    }
}
