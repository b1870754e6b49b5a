/// `none` (WebAuthn §8.7): the authenticator gives no attestation; the statement must be empty.
public struct NoneAttestation: AttestationStatementVerifier {
    public let format = "none"
    public init() {}

    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        guard context.statement.count == 0 else {
            throw context.failure("malformed", "none attestation statement must be empty")
        }
        return VerifiedAttestation(format: format, type: .none)
    }
}
