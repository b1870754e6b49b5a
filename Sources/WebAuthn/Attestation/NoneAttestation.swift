/// `none` (WebAuthn §8.7): the authenticator gives no attestation; the statement must be empty.
public struct NoneAttestation: AttestationStatementVerifier {
    /// The attestation statement format identifier.
    public let format = "none"
    /// A verifier for this format.
    public init() {}

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        guard context.statement.count == 0 else {
            throw context.failure("malformed", "none attestation statement must be empty")
        }
        return VerifiedAttestation(format: format, type: .none)
    }
}
