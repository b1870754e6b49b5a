import X509

/// `tpm` (WebAuthn §8.3): a TPM certifies the credential key (`pubArea`) with its attestation identity
/// key (AIK), signing a `TPMS_ATTEST` (`certInfo`) whose `extraData` binds the registration. Type attCA.
public struct TPMAttestation: AttestationStatementVerifier {
    /// The attestation statement format identifier.
    public let format = "tpm"
    /// A verifier for this format.
    public init() {}

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        guard context.statement[text: "ver"]?.stringValue == "2.0" else {
            throw context.failure("unsupportedVersion", "tpm attestation statement ver must be \"2.0\"")
        }
        let alg = try context.algorithm()
        guard let chain = try context.certificateChain(), let aik = chain.first else {
            throw context.failure(
                "malformed", "tpm attestation statement has no x5c (ECDAA is not supported by WebAuthn Level 3)")
        }
        let signature = try context.bytes("sig")
        let pubArea = try TPMTPublic(bytes: try context.bytes("pubArea"))
        let certInfoBytes = try context.bytes("certInfo")
        let certInfo = try TPMSAttest(bytes: certInfoBytes)

        try context.checkCredentialPublicKey(equals: pubArea.keyMaterial, holder: "pubArea")

        guard let extraDataHash = TPMHashAlgorithm(signatureAlgorithm: alg) else {
            throw WebAuthnError(
                .unsupportedAlgorithm, "tpm attestation alg \(alg) has no hash to compute extraData with")
        }
        guard constantTimeEquals(certInfo.extraData, extraDataHash.hash(context.signedData)) else {
            throw context.failure(
                "extraDataMismatch", "tpm certInfo extraData is not the \(alg.name) hash of authData || clientDataHash")
        }

        guard let nameHash = TPMHashAlgorithm(algorithmID: pubArea.nameAlg) else {
            throw context.failure(
                "pubAreaMalformed",
                "tpm pubArea nameAlg 0x\(Hex.encode(TPMTPublic.bigEndian(pubArea.nameAlg))) is not a supported hash")
        }
        let expectedName = TPMTPublic.bigEndian(pubArea.nameAlg) + nameHash.hash(pubArea.rawValue)
        guard constantTimeEquals(certInfo.attestedName, expectedName) else {
            throw context.failure(
                "nameMismatch", "tpm certInfo attested name is not the Name of pubArea (nameAlg || hash of pubArea)")
        }

        let verifier = try SignatureVerifier(certificateKey: aik.publicKey, algorithm: alg)
        guard verifier.isValidSignature(signature, for: certInfoBytes) else {
            throw context.failure(
                "badSignature", "tpm attestation signature over certInfo does not verify with the AIK certificate")
        }
        try AIKCertificateRequirements().check(aik, context: context)
        try context.checkAAGUIDExtension(of: aik, certificateName: "AIK certificate")

        let trust = try await context.evaluateTrust(
            of: chain, extraCriticalExtensions: AIKCertificateRequirements.handledCriticalExtensions)
        return VerifiedAttestation(format: format, type: .attCA, trustPath: chain, trust: trust)
    }
}
