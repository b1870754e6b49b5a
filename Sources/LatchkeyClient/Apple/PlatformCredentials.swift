import Foundation
import WebAuthn

/// What a platform passkey registration result carries — the fields of
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration` and
/// `ASAuthorizationSecurityKeyPublicKeyCredentialRegistration`, which conform in a few lines.
public protocol PlatformRegistrationResult {
    var credentialID: Data { get }
    var rawClientDataJSON: Data { get }
    /// The CBOR attestation object (nil when the platform withholds it).
    var rawAttestationObject: Data? { get }
    /// `platform` or `cross-platform`, when the platform says.
    var attachment: AuthenticatorAttachment? { get }
    /// The transports the platform reports (security keys); empty for platform passkeys.
    var reportedTransports: [AuthenticatorTransport] { get }
}

/// What a platform passkey assertion result carries — the fields of
/// `ASAuthorizationPlatformPublicKeyCredentialAssertion` and its security-key sibling.
public protocol PlatformAssertionResult {
    var credentialID: Data { get }
    var rawClientDataJSON: Data { get }
    var rawAuthenticatorData: Data { get }
    var signature: Data { get }
    /// The user handle (`user.id` at registration); empty when the authenticator returned none.
    var userID: Data { get }
    var attachment: AuthenticatorAttachment? { get }
}

/// Turns platform results into the WebAuthn L3 JSON models the server takes (base64url everywhere).
public enum PlatformCredentialMapping {
    /// The `RegistrationResponseJSON` for a platform registration.
    /// - Throws: ``AuthenticatorError/Code/failed`` when the platform gave no attestation object.
    public static func registration(_ result: some PlatformRegistrationResult) throws(AuthenticatorError) -> RegistrationCredential {
        guard let attestationObject = result.rawAttestationObject, !attestationObject.isEmpty else {
            throw AuthenticatorError(.failed, "the platform returned no attestation object")
        }
        let transports = result.reportedTransports.isEmpty
            ? (result.attachment == .platform ? [.internal, .hybrid] : nil)
            : result.reportedTransports
        return RegistrationCredential(
            rawId: Array(result.credentialID),
            response: AuthenticatorAttestationResponse(
                clientDataJSON: Array(result.rawClientDataJSON), attestationObject: Array(attestationObject),
                transports: transports
            ),
            authenticatorAttachment: result.attachment
        )
    }

    /// The `AuthenticationResponseJSON` for a platform assertion.
    public static func assertion(_ result: some PlatformAssertionResult) -> AuthenticationCredential {
        AuthenticationCredential(
            rawId: Array(result.credentialID),
            response: AuthenticatorAssertionResponse(
                clientDataJSON: Array(result.rawClientDataJSON), authenticatorData: Array(result.rawAuthenticatorData),
                signature: Array(result.signature), userHandle: result.userID.isEmpty ? nil : Array(result.userID)
            ),
            authenticatorAttachment: result.attachment
        )
    }
}
