import SwiftASN1
import X509

/// `packed` (WebAuthn §8.2): a signature over `authData || clientDataHash`, either by an attestation
/// certificate (`x5c`, basic or attCA) or by the credential key itself (self attestation).
public struct PackedAttestation: AttestationStatementVerifier {
    /// The attestation statement format identifier.
    public let format = "packed"
    /// A verifier for this format.
    public init() {}

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        let alg = try context.algorithm()
        let signature = try context.bytes("sig")

        guard let chain = try context.certificateChain(), let leaf = chain.first else {
            // Self attestation: the credential key signs, under its own algorithm.
            guard alg == context.credential.publicKey.algorithm else {
                throw context.failure(
                    "algorithmMismatch",
                    "self attestation alg \(alg.name) differs from the credential key's \(context.credential.publicKey.algorithm.name)"
                )
            }
            let verifier: SignatureVerifier
            if let prepared = context.credentialKeyVerifier {
                verifier = prepared
            } else {
                verifier = try SignatureVerifier(coseKey: context.credential.publicKey)
            }
            guard verifier.isValidSignature(signature, for: context.signedData) else {
                throw context.failure(
                    "badSignature", "packed self attestation signature does not verify with the credential key")
            }
            return VerifiedAttestation(format: format, type: .self)
        }

        let verifier = try SignatureVerifier(certificateKey: leaf.publicKey, algorithm: alg)
        guard verifier.isValidSignature(signature, for: context.signedData) else {
            throw context.failure(
                "badSignature", "packed attestation signature does not verify with the x5c leaf certificate")
        }
        try Self.checkCertificateRequirements(leaf, context: context)
        try context.checkAAGUIDExtension(of: leaf)
        let trust = try await context.evaluateTrust(of: chain)
        return VerifiedAttestation(format: format, type: .basic, trustPath: chain, trust: trust)
    }

    /// WebAuthn §8.2.1: version 3; subject C, O, OU "Authenticator Attestation", CN; not a CA.
    static func checkCertificateRequirements(_ leaf: Certificate, context: AttestationContext) throws(WebAuthnError) {
        guard leaf.version == .v3 else {
            throw context.failure("certificateRequirements", "attestation certificate must be X.509 version 3")
        }
        let subject = leaf.subject
        func values(_ oid: ASN1ObjectIdentifier) -> [String] {
            subject.flatMap { $0 }.filter { $0.type == oid }.map { "\($0.value)" }
        }
        let country = values(.RDNAttributeType.countryName)
        let organization = values(.RDNAttributeType.organizationName)
        let unit = values(.RDNAttributeType.organizationalUnitName)
        let commonName = values(.RDNAttributeType.commonName)
        guard !country.isEmpty, !organization.isEmpty, !commonName.isEmpty else {
            throw context.failure(
                "certificateRequirements", "attestation certificate subject must have C, O and CN (it is \(subject))")
        }
        guard unit.contains("Authenticator Attestation") else {
            throw context.failure(
                "certificateRequirements",
                "attestation certificate subject OU must be \"Authenticator Attestation\" (it is \(subject))")
        }
        if let constraints = try? leaf.extensions.basicConstraints, case .isCertificateAuthority = constraints {
            throw context.failure("certificateRequirements", "attestation certificate must not be a CA")
        }
    }
}
