import Crypto
import SwiftASN1
import WebAuthn
import X509

/// An authenticator's attestation key and the certificate chain (`x5c`, leaf first) that vouches for it.
struct AttestationIdentity: Sendable {
    let key: SigningKey
    let x5c: [[UInt8]]

    /// Makes a P-256 attestation key and has `authority` issue its certificate.
    ///
    /// - Parameters:
    ///   - aaguid: put in the certificate's id-fido-gen-ce-aaguid extension (`packed`); nil leaves it out
    ///     (`fido-u2f`, whose AAGUID is zero).
    ///   - leafOnly: send only the leaf in `x5c`, as `fido-u2f` requires; otherwise the intermediates follow it.
    init(issuedBy authority: AttestationCA, aaguid: AAGUID?, leafOnly: Bool) throws(VirtualAuthenticatorError) {
        let privateKey = P256.Signing.PrivateKey()
        let leaf = try authority.issueAttestationCertificate(
            publicKey: Certificate.PublicKey(privateKey.publicKey),
            commonName: aaguid == nil ? "Latchkey Virtual U2F Authenticator" : "Latchkey Virtual Authenticator",
            aaguid: aaguid
        )
        do {
            x5c = try ([leaf] + (leafOnly ? [] : authority.x5cAfterLeaf)).map { certificate in
                var serializer = DER.Serializer()
                try serializer.serialize(certificate)
                return serializer.serializedBytes
            }
        } catch {
            throw .certificateIssuanceFailed("encoding x5c: \(error)")
        }
        key = SigningKey(.p256(privateKey), algorithm: .es256)
    }
}
