import Crypto
import SwiftASN1
import X509

/// `apple` (WebAuthn §8.8): Apple's anonymous attestation CA issues a certificate for the credential key
/// whose nonce extension binds the registration. Type anonCA.
public struct AppleAttestation: AttestationStatementVerifier {
    /// The attestation statement format identifier.
    public let format = "apple"
    /// The Apple anonymous attestation nonce extension.
    public static let nonceExtensionOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    /// A verifier for this format.
    public init() {}

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        guard let chain = try context.certificateChain(), let credentialCertificate = chain.first else {
            throw context.failure("malformed", "apple attestation statement has no x5c")
        }
        let expectedNonce = Array(SHA256.hash(data: context.signedData))
        let nonce = try Self.nonce(in: credentialCertificate, context: context)
        guard constantTimeEquals(nonce, expectedNonce) else {
            throw context.failure(
                "nonceMismatch", "apple credential certificate nonce is not SHA-256(authData || clientDataHash)")
        }
        try context.checkCredentialPublicKey(
            equals: PublicKeyMaterial(credentialCertificate.publicKey), holder: "credential certificate")

        let trust = try await context.evaluateTrust(of: chain, extraCriticalExtensions: [Self.nonceExtensionOID])
        return VerifiedAttestation(format: format, type: .anonCA, trustPath: chain, trust: trust)
    }

    /// Reads the nonce extension: `SEQUENCE { nonce [1] EXPLICIT OCTET STRING }`.
    static func nonce(in certificate: Certificate, context: AttestationContext) throws(WebAuthnError) -> [UInt8] {
        guard let ext = certificate.extensions[oid: nonceExtensionOID] else {
            throw context.failure(
                "nonceExtensionMissing", "apple credential certificate has no nonce extension (1.2.840.113635.100.8.2)")
        }
        do {
            let root = try DER.parse(Array(ext.value))
            return try DER.sequence(root, identifier: .sequence) { nodes in
                try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                    Array(try ASN1OctetString(derEncoded: node).bytes)
                }
            }
        } catch {
            throw context.failure(
                "nonceExtensionMalformed", "apple nonce extension is not SEQUENCE { [1] OCTET STRING }")
        }
    }
}
