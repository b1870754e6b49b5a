import SwiftASN1
import X509

/// `android-key` (WebAuthn §8.4): the Android Keystore signs `authData || clientDataHash` with the credential
/// key itself and certifies that key in `x5c`, whose leaf carries the key description extension. Type basic.
///
/// How strictly the key description's `origin` and `purpose` are checked is set by
/// ``AttestationOptions/androidKeyAuthorizations``.
public struct AndroidKeyAttestation: AttestationStatementVerifier {
    /// The attestation statement format identifier.
    public let format = "android-key"
    /// A verifier for this format.
    public init() {}

    /// Verifies the statement in `context` as this format defines.
    public func verify(_ context: AttestationContext) async throws(WebAuthnError) -> VerifiedAttestation {
        let alg = try context.algorithm()
        let signature = try context.bytes("sig")
        guard let chain = try context.certificateChain(), let leaf = chain.first else {
            throw context.failure("malformed", "android-key attestation statement has no x5c")
        }
        let verifier = try SignatureVerifier(certificateKey: leaf.publicKey, algorithm: alg)
        guard verifier.isValidSignature(signature, for: context.signedData) else {
            throw context.failure(
                "badSignature", "android-key attestation signature does not verify with the x5c leaf certificate")
        }
        try context.checkCredentialPublicKey(
            equals: PublicKeyMaterial(leaf.publicKey), holder: "attestation certificate")

        let description = try Self.keyDescription(of: leaf, context: context)
        guard constantTimeEquals(description.attestationChallenge, context.clientDataHash) else {
            throw context.failure("challengeMismatch", "android-key attestationChallenge is not the clientDataHash")
        }
        try Self.checkAuthorizations(description, policy: context.options.androidKeyAuthorizations, context: context)

        let trust = try await context.evaluateTrust(
            of: chain, extraCriticalExtensions: [AndroidKeyDescription.extensionOID])
        return VerifiedAttestation(format: format, type: .basic, trustPath: chain, trust: trust)
    }

    /// Reads the leaf's key description extension.
    static func keyDescription(of leaf: Certificate, context: AttestationContext) throws(WebAuthnError)
        -> AndroidKeyDescription
    {
        guard let ext = leaf.extensions[oid: AndroidKeyDescription.extensionOID] else {
            throw context.failure(
                "keyDescriptionMissing",
                "android-key attestation certificate has no key description extension (1.3.6.1.4.1.11129.2.1.17)")
        }
        do {
            return try AndroidKeyDescription(derEncoded: Array(ext.value))
        } catch {
            throw context.failure(
                "keyDescriptionMalformed", "android-key key description extension is not a valid KeyDescription")
        }
    }

    /// WebAuthn §8.4 step 4: no `allApplications`; `origin` generated and `purpose` sign, per `policy`.
    static func checkAuthorizations(
        _ description: AndroidKeyDescription, policy: AndroidKeyAuthorizationPolicy, context: AttestationContext
    ) throws(WebAuthnError) {
        guard !description.softwareEnforced.allApplications, !description.teeEnforced.allApplications else {
            throw context.failure(
                "allApplicationsPresent",
                "android-key key description has allApplications: the key is not scoped to the RP")
        }
        let lists = policy.consulted(description)
        let origins = lists.compactMap(\.origin)
        if origins.contains(where: { $0 != AndroidAuthorizationList.originGenerated }) {
            throw context.failure(
                "originNotGenerated", "android-key key description origin is \(origins), not KM_ORIGIN_GENERATED (0)")
        }
        if policy.requiresStatement, origins.isEmpty {
            throw context.failure("originNotGenerated", "android-key key description states no origin in \(policy)")
        }
        let purposes = lists.compactMap(\.purposes)
        if purposes.contains(where: { !$0.contains(AndroidAuthorizationList.purposeSign) }) {
            throw context.failure(
                "purposeNotSign", "android-key key description purpose is \(purposes), without KM_PURPOSE_SIGN (2)")
        }
        if policy.requiresStatement, purposes.isEmpty {
            throw context.failure("purposeNotSign", "android-key key description states no purpose in \(policy)")
        }
    }
}
