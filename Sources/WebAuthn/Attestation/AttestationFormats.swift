/// The attestation statement formats a relying party accepts, by identifier.
public struct AttestationFormats: Sendable {
    private var verifiers: [String: any AttestationStatementVerifier]

    /// The formats these verifiers handle, by their format identifiers.
    public init(_ verifiers: [any AttestationStatementVerifier]) {
        self.verifiers = Dictionary(verifiers.map { ($0.format, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Every format WebAuthn Level 3 defines but `compound`.
    public static let single = AttestationFormats([
        NoneAttestation(), PackedAttestation(), FIDOU2FAttestation(), TPMAttestation(), AndroidKeyAttestation(),
        AndroidSafetyNetAttestation(), AppleAttestation(),
    ])

    /// Every format WebAuthn Level 3 defines; `compound` statements may combine any of ``single``.
    public static let all: AttestationFormats = {
        var formats = single
        formats.register(CompoundAttestation(formats: single))
        return formats
    }()

    /// The verifier for a format identifier, or nil when it is not accepted.
    public func verifier(for format: String) -> (any AttestationStatementVerifier)? { verifiers[format] }

    /// The accepted format identifiers, sorted.
    public var identifiers: [String] { verifiers.keys.sorted() }

    /// Adds or replaces a format.
    public mutating func register(_ verifier: any AttestationStatementVerifier) {
        verifiers[verifier.format] = verifier
    }
}
