import WebAuthn

/// Why the virtual authenticator (or the client in front of it) refused a ceremony.
///
/// These mirror the `DOMException`s a browser raises: `InvalidStateError` for an excluded credential,
/// `NotAllowedError` when no credential matches, `NotSupportedError` for algorithms, `SecurityError` for an
/// RP ID that does not fit the origin.
public enum VirtualAuthenticatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// None of the requested `pubKeyCredParams` algorithms is one this authenticator signs with.
    case unsupportedAlgorithm(requested: [COSEAlgorithm])
    /// A credential named in `excludeCredentials` already lives on this authenticator.
    case excludedCredentialExists(credentialID: [UInt8])
    /// No stored credential fits the request: none in `allowCredentials`, or no discoverable one for the RP ID.
    case noMatchingCredential(rpID: String)
    /// The account chooser picked no credential.
    case selectionCancelled
    /// The request requires user verification and the authenticator is configured without it.
    case userVerificationUnavailable
    /// The request requires a discoverable credential and the authenticator is configured without them.
    case residentKeyUnavailable
    /// The RP ID is not the origin's host or a registrable suffix of it.
    case rpIDNotValidForOrigin(rpID: String, origin: String)
    /// A credential key could not be generated.
    case keyGenerationFailed(String)
    /// A signature could not be made.
    case signingFailed(String)
    /// A stored credential's private key could not be loaded.
    case storedKeyMalformed(String)
    /// The attestation certificate could not be issued.
    case certificateIssuanceFailed(String)
    /// The credential store failed.
    case storeFailed(String)

    public var description: String {
        switch self {
        case .unsupportedAlgorithm(let requested):
            "none of the requested algorithms [\(requested.map(\.name).joined(separator: ", "))] is supported"
        case .excludedCredentialExists(let id):
            "credential \(Base64URL.encode(id)) from excludeCredentials already exists on this authenticator"
        case .noMatchingCredential(let rpID):
            "no credential on this authenticator matches the request for RP ID \"\(rpID)\""
        case .selectionCancelled:
            "no credential was chosen"
        case .userVerificationUnavailable:
            "user verification is required but this authenticator cannot verify the user"
        case .residentKeyUnavailable:
            "a discoverable credential is required but this authenticator cannot store one"
        case .rpIDNotValidForOrigin(let rpID, let origin):
            "RP ID \"\(rpID)\" is not valid for origin \"\(origin)\""
        case .keyGenerationFailed(let reason):
            "key generation failed: \(reason)"
        case .signingFailed(let reason):
            "signing failed: \(reason)"
        case .storedKeyMalformed(let reason):
            "stored private key is malformed: \(reason)"
        case .certificateIssuanceFailed(let reason):
            "attestation certificate issuance failed: \(reason)"
        case .storeFailed(let reason):
            "credential store failed: \(reason)"
        }
    }
}
