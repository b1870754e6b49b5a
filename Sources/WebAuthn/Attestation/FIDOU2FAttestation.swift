import Crypto
import X509

/// `fido-u2f` (WebAuthn §8.6): a U2F authenticator's registration signature, made with its P-256
/// attestation certificate over `0x00 || rpIdHash || clientDataHash || credentialId || publicKeyU2F`.
public struct FIDOU2FAttestation: AttestationStatementVerifier {
    /// The attestation statement format identifier.
    public let format = "fido-u2f"
    /// A verifier for this format.
    public init() {}

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        let signature = try context.bytes("sig")
        guard let chain = try context.certificateChain(), chain.count == 1, let certificate = chain.first else {
            throw context.failure("malformed", "fido-u2f x5c must hold exactly one certificate")
        }
        guard P256.Signing.PublicKey(certificate.publicKey) != nil else {
            throw context.failure(
                "certificateRequirements", "fido-u2f attestation certificate key is not an EC P-256 key")
        }
        guard case .ec2(let curve, let x, let y) = context.credential.publicKey.parameters,
            curve == COSEKey.Curve.p256, x.count == 32, y.count == 32
        else {
            throw context.failure(
                "publicKeyNotP256", "fido-u2f credential public key must be an uncompressed EC P-256 key")
        }
        let auth = context.authenticatorData
        var data: [UInt8] = [0x00]
        data += auth.rpIDHash
        data += context.clientDataHash
        data += context.credential.credentialID
        data += [0x04] + x + y
        let verifier = try SignatureVerifier(certificateKey: certificate.publicKey, algorithm: .es256)
        guard verifier.isValidSignature(signature, for: data) else {
            throw context.failure(
                "badSignature", "fido-u2f attestation signature does not verify with the attestation certificate")
        }
        let trust = try await context.evaluateTrust(of: chain)
        return VerifiedAttestation(format: format, type: .basic, trustPath: chain, trust: trust)
    }
}
