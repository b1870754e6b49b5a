import Foundation
import X509

/// Checks a certificate chain against caller-supplied CRLs: each certificate for which a CRL from its issuer
/// is supplied must not be listed in it, and that CRL must be signed by the issuer and current.
struct RevocationCheck {
    let revocationLists: [CertificateRevocationList]

    /// - Parameters:
    ///   - chain: the chain as sent, leaf first.
    ///   - anchor: the root the chain was validated to (the issuer of the chain's last certificate).
    func verify(_ chain: [Certificate], anchor: Certificate, at time: Date) throws(WebAuthnError) {
        guard !revocationLists.isEmpty else { return }
        let issuers = chain + [anchor]
        for certificate in chain where certificate.subject != certificate.issuer {
            for list in revocationLists where list.issuer == certificate.issuer {
                guard issuers.contains(where: { $0.subject == list.issuer && list.isSigned(by: $0) }) else {
                    throw WebAuthnError(
                        .metadataUntrustedChain, "the CRL from \(list.issuer) is not signed by that issuer")
                }
                if let nextUpdate = list.nextUpdate, time > nextUpdate {
                    throw WebAuthnError(
                        .metadataStale, "the CRL from \(list.issuer) was due to be replaced at \(nextUpdate)")
                }
                if list.revokes(certificate) {
                    throw WebAuthnError(
                        .metadataRevoked,
                        "\(certificate.subject) (serial \(certificate.serialNumber)) is revoked by its issuer's CRL")
                }
            }
        }
    }
}
