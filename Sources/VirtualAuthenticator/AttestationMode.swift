/// The attestation statement a virtual authenticator produces for new credentials.
public enum AttestationMode: Sendable {
    /// `none`: no statement.
    case none
    /// `packed` self attestation: the credential key signs `authData || clientDataHash`; no `x5c`.
    case packedSelf
    /// `packed` with `x5c`: a P-256 attestation key, with a certificate issued by the CA (WebAuthn §8.2.1,
    /// carrying the AAGUID), signs `authData || clientDataHash`.
    case packed(AttestationCA)
    /// `fido-u2f` (WebAuthn §8.6): P-256 credentials only, zero AAGUID; a P-256 attestation certificate
    /// issued by the CA (sent alone in `x5c`) signs `0x00 || rpIdHash || clientDataHash || credentialId || publicKeyU2F`.
    case fidoU2F(AttestationCA)

    /// The attestation statement format identifier.
    public var format: String {
        switch self {
        case .none: "none"
        case .packedSelf, .packed: "packed"
        case .fidoU2F: "fido-u2f"
        }
    }

    /// U2F authenticators make only P-256 keys and report a zero AAGUID.
    var isFIDOU2F: Bool {
        if case .fidoU2F = self { true } else { false }
    }
}
