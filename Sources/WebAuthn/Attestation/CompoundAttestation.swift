import CBOR

/// `compound` (WebAuthn §8.9): several attestation statements of other formats over the same registration.
/// The statement is an array of at least two `{fmt, attStmt}` maps; every one must verify with its own
/// format's verifier, and none may itself be `compound`.
///
/// The result lists every sub-statement's outcome in ``VerifiedAttestation/components``. Its own type, trust
/// path and trust are those of the first sub-statement whose path is trusted (so one trusted attestation
/// satisfies a ``AttestationPolicy/trusted`` policy), or of the first sub-statement when none is.
public struct CompoundAttestation: AttestationStatementVerifier {
    /// The format identifier, `compound`: the one format whose `attStmt` is an array.
    public static let formatIdentifier = "compound"
    /// The attestation statement format identifier.
    public let format = Self.formatIdentifier
    /// The formats sub-statements may use.
    public let formats: AttestationFormats

    /// - Parameter formats: the formats sub-statements may use; a `compound` among them is never used.
    public init(formats: AttestationFormats) {
        self.formats = formats
    }

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        guard let entries = context.rawStatement.arrayValue else {
            throw context.failure("malformed", "compound attestation statement is not an array")
        }
        guard entries.count >= 2 else {
            throw context.failure(
                "malformed",
                "compound attestation statement has \(entries.count) sub-statements; at least 2 are required")
        }
        var components: [VerifiedAttestation] = []
        for (index, entry) in entries.enumerated() {
            guard let map = entry.mapValue, let subformat = map[text: "fmt"]?.stringValue,
                let statement = map[text: "attStmt"]?.mapValue
            else {
                throw context.failure(
                    "malformed", "compound sub-statement \(index) is not a map of text \"fmt\" and map \"attStmt\"")
            }
            guard subformat != format else {
                throw context.failure("nestedCompound", "compound sub-statement \(index) is itself compound")
            }
            guard let verifier = formats.verifier(for: subformat) else {
                throw WebAuthnError(
                    .unsupportedAttestationFormat,
                    "compound sub-statement \(index) has unsupported format \"\(subformat)\"")
            }
            components.append(try await verifier.verify(context.substatement(format: subformat, statement: statement)))
        }
        let representative = components.first(where: { $0.trust.isTrusted }) ?? components[0]
        return VerifiedAttestation(
            format: format, type: representative.type, trustPath: representative.trustPath,
            trust: representative.trust, components: components
        )
    }
}
