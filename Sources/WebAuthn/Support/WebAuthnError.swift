import CBOR

/// The one error type of the WebAuthn module: a stable machine-readable ``code`` and a human ``message``.
///
/// Codes are dotted lower-camel strings (`challengeMismatch`, `attestation.packed.badSignature`,
/// `certificate.expired`). They are part of the public API: servers return them to clients and
/// tests assert them, so a code never changes meaning once shipped.
public struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable, machine-readable code.
    public let code: Code
    /// A human sentence; never a secret.
    public let message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `<code>: <message>`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// A stable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// A code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The code as text.
        public var description: String { rawValue }
    }
}

extension WebAuthnError.Code {
    // Credential JSON
    /// The credential JSON cannot be parsed.
    public static let malformedCredential: Self = "malformedCredential"
    /// A binary member is not base64url (or base64).
    public static let invalidBase64: Self = "invalidBase64"
    /// The credential's `type` is not `public-key`.
    public static let credentialTypeInvalid: Self = "credentialTypeInvalid"
    /// The credential ID is not the expected one.
    public static let credentialIdMismatch: Self = "credentialIdMismatch"
    /// The credential was not in `allowCredentials`.
    public static let credentialNotAllowed: Self = "credentialNotAllowed"
    /// The assertion's user handle is not the credential owner's.
    public static let userHandleMismatch: Self = "userHandleMismatch"

    // Client data
    /// `clientDataJSON` cannot be parsed.
    public static let clientDataMalformed: Self = "clientDataMalformed"
    /// The client data `type` is not the expected one.
    public static let typeMismatch: Self = "typeMismatch"
    /// The client data challenge is not the expected one.
    public static let challengeMismatch: Self = "challengeMismatch"
    /// The client data origin is not one of the relying party's.
    public static let originNotAllowed: Self = "originNotAllowed"
    /// A cross-origin ceremony where they are not allowed.
    public static let crossOriginNotAllowed: Self = "crossOriginNotAllowed"
    /// A cross-origin ceremony from a top-level origin that is not allowed.
    public static let topOriginNotAllowed: Self = "topOriginNotAllowed"
    /// The client data token-binding status is not a known one.
    public static let tokenBindingInvalid: Self = "tokenBindingInvalid"

    // Authenticator data
    /// The authenticator data cannot be parsed.
    public static let authenticatorDataMalformed: Self = "authenticatorDataMalformed"
    /// The rpIdHash matches none of the accepted RP IDs.
    public static let rpIdHashMismatch: Self = "rpIdHashMismatch"
    /// The UP flag is not set.
    public static let userPresenceRequired: Self = "userPresenceRequired"
    /// User verification was required and the UV flag is not set.
    public static let userVerificationRequired: Self = "userVerificationRequired"
    /// A registration whose authenticator data carries no credential.
    public static let attestedCredentialDataMissing: Self = "attestedCredentialDataMissing"
    /// BS without BE, or BE changed since registration.
    public static let backupStateInvalid: Self = "backupStateInvalid"
    /// The relying party's authenticator policy refuses this authenticator model (``AuthenticatorPolicy``).
    public static let authenticatorNotAllowed: Self = "authenticator.notAllowed"
    /// The relying party accepts device-bound passkeys only, and this one may be backed up.
    public static let authenticatorBackupNotAllowed: Self = "authenticator.backupNotAllowed"
    /// The relying party accepts synced passkeys only, and this one may not be backed up.
    public static let authenticatorBackupRequired: Self = "authenticator.backupRequired"

    // Attestation object and keys
    /// The attestation object cannot be parsed.
    public static let attestationObjectMalformed: Self = "attestationObjectMalformed"
    /// An attestation format this relying party does not accept.
    public static let unsupportedAttestationFormat: Self = "attestation.unsupportedFormat"
    /// A trusted attestation was required and this one is not.
    public static let untrustedAttestation: Self = "attestation.untrusted"
    /// A COSE key cannot be parsed or used.
    public static let publicKeyMalformed: Self = "publicKeyMalformed"
    /// An algorithm this library cannot verify.
    public static let unsupportedAlgorithm: Self = "unsupportedAlgorithm"
    /// An algorithm the relying party did not offer.
    public static let algorithmNotAllowed: Self = "algorithmNotAllowed"

    // Assertion
    /// A signature does not verify.
    public static let badSignature: Self = "badSignature"
    /// The signature counter did not increase.
    public static let signCountRegression: Self = "signCountRegression"

    // Certificates
    /// A certificate cannot be parsed.
    public static let certificateMalformed: Self = "certificate.malformed"
    /// A certificate had expired at the verification time.
    public static let certificateExpired: Self = "certificate.expired"
    /// A certificate was not yet valid at the verification time.
    public static let certificateNotYetValid: Self = "certificate.notYetValid"
    /// A certificate lacks what its attestation format requires.
    public static let certificateRequirements: Self = "certificate.requirementsNotMet"

    /// A failure of this library, not of the input.
    public static let internalError: Self = "internalError"

    /// `attestation.<format>.<check>`, e.g. `attestation.packed.badSignature`.
    public static func attestation(_ format: String, _ check: String) -> Self {
        Self(rawValue: "attestation.\(format).\(check)")
    }
}

extension WebAuthnError {
    /// Wraps a CBOR error found while decoding `what`.
    static func cbor(_ error: CBORError, in what: String, code: Code) -> WebAuthnError {
        WebAuthnError(code, "\(what) is not valid CBOR: \(error.description) (\(error.code))")
    }
}
