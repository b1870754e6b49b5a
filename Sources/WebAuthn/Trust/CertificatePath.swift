import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// An attestation certificate chain (`x5c`, leaf first) and the checks made on it.
struct CertificatePath {
    let chain: [Certificate]
    let format: String

    /// Checks every certificate's validity period at `time`, then, where anchors are configured,
    /// validates the path to one of them with swift-certificates' RFC 5280 verifier. A path that leads to none is
    /// reported untrusted, not thrown: whether that fails is the ``AttestationPolicy``'s call.
    func evaluate(
        at time: Date, anchors: [Certificate]?, extraCriticalExtensions: [ASN1ObjectIdentifier]
    ) async throws(WebAuthnError) -> TrustStatus {
        for (index, certificate) in chain.enumerated() {
            if time < certificate.notValidBefore {
                throw WebAuthnError(
                    .certificateNotYetValid,
                    "\(format) x5c[\(index)] (\(certificate.subject)) is not valid before \(certificate.notValidBefore)"
                )
            }
            if time > certificate.notValidAfter {
                throw WebAuthnError(
                    .certificateExpired,
                    "\(format) x5c[\(index)] (\(certificate.subject)) expired at \(certificate.notValidAfter)")
            }
        }
        guard let anchors, !anchors.isEmpty, let leaf = chain.first else {
            return .untrusted(reason: "no trust anchor is configured for \(format) attestation")
        }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            AttestationExtensionsPolicy(handled: extraCriticalExtensions)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(Array(chain.dropFirst())))
        switch result {
        case .validCertificate(let validated):
            guard let anchor = validated.last else { return .untrusted(reason: "empty validated chain") }
            return .trusted(anchor: anchor)
        case .couldNotValidate(let failures):
            let reason =
                failures.first.map { "\($0.policyFailureReason)" }
                ?? "the chain does not lead to a configured \(format) trust anchor"
            return .untrusted(reason: reason)
        }
    }
}

/// Declares the critical extensions that attestation formats check themselves (for example the TPM
/// AIK certificate's subject alternative name), so the path verifier does not reject them as unknown.
struct AttestationExtensionsPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

    init(handled: [ASN1ObjectIdentifier]) {
        verifyingCriticalExtensions = handled
    }

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        .meetsPolicy
    }
}
