import CBOR

/// The one error type of the WebAuthn module: a stable machine-readable ``code`` and a human ``message``.
///
/// Codes are dotted lower-camel strings (`challengeMismatch`, `attestation.packed.badSignature`,
/// `certificate.expired`). They are part of the public API: servers return them to clients and
/// tests assert them, so a code never changes meaning once shipped.
public struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A stable error code.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public var description: String { rawValue }
    }
}

extension WebAuthnError.Code {
    // Credential JSON
    public static let malformedCredential: Self = "malformedCredential"
    public static let invalidBase64: Self = "invalidBase64"
    public static let credentialTypeInvalid: Self = "credentialTypeInvalid"
    public static let credentialIdMismatch: Self = "credentialIdMismatch"
    public static let credentialNotAllowed: Self = "credentialNotAllowed"
    public static let userHandleMismatch: Self = "userHandleMismatch"

    // Client data
    public static let clientDataMalformed: Self = "clientDataMalformed"
    public static let typeMismatch: Self = "typeMismatch"
    public static let challengeMismatch: Self = "challengeMismatch"
    public static let originNotAllowed: Self = "originNotAllowed"
    public static let crossOriginNotAllowed: Self = "crossOriginNotAllowed"
    public static let topOriginNotAllowed: Self = "topOriginNotAllowed"
    public static let tokenBindingInvalid: Self = "tokenBindingInvalid"

    // Authenticator data
    public static let authenticatorDataMalformed: Self = "authenticatorDataMalformed"
    public static let rpIdHashMismatch: Self = "rpIdHashMismatch"
    public static let userPresenceRequired: Self = "userPresenceRequired"
    public static let userVerificationRequired: Self = "userVerificationRequired"
    public static let attestedCredentialDataMissing: Self = "attestedCredentialDataMissing"
    public static let backupStateInvalid: Self = "backupStateInvalid"

    // Attestation object and keys
    public static let attestationObjectMalformed: Self = "attestationObjectMalformed"
    public static let unsupportedAttestationFormat: Self = "attestation.unsupportedFormat"
    public static let untrustedAttestation: Self = "attestation.untrusted"
    public static let publicKeyMalformed: Self = "publicKeyMalformed"
    public static let unsupportedAlgorithm: Self = "unsupportedAlgorithm"
    public static let algorithmNotAllowed: Self = "algorithmNotAllowed"

    // Assertion
    public static let badSignature: Self = "badSignature"
    public static let signCountRegression: Self = "signCountRegression"

    // Certificates
    public static let certificateMalformed: Self = "certificate.malformed"
    public static let certificateExpired: Self = "certificate.expired"
    public static let certificateNotYetValid: Self = "certificate.notYetValid"
    public static let certificateUntrusted: Self = "certificate.untrusted"
    public static let certificateRequirements: Self = "certificate.requirementsNotMet"

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
