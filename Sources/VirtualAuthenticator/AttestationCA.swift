import Crypto
import Foundation
import SwiftASN1
import WebAuthn
import X509

/// A certificate authority that issues the virtual authenticator's attestation certificates — the role an
/// authenticator vendor's attestation root (or an intermediate under it) plays.
///
/// Give a relying party ``rootCertificate`` as its trust anchor and `packed` / `fido-u2f` registrations from a
/// ``VirtualAuthenticator`` configured with this CA verify as trusted.
public struct AttestationCA: Sendable {
    /// The certificate whose key signs attestation certificates.
    public var certificate: Certificate
    /// The private key of ``certificate``.
    public var privateKey: Certificate.PrivateKey
    /// The certificates between ``certificate`` and the root, nearest first, when ``certificate`` is not
    /// itself the root. The leaf, ``certificate`` and these make up `x5c`.
    public var chainToRoot: [Certificate]

    /// - Parameters:
    ///   - certificate: the issuing certificate, a CA.
    ///   - privateKey: its private key.
    ///   - chainToRoot: empty when `certificate` is the root; otherwise the intermediates above it, without
    ///     the root.
    public init(certificate: Certificate, privateKey: Certificate.PrivateKey, chainToRoot: [Certificate] = []) {
        self.certificate = certificate
        self.privateKey = privateKey
        self.chainToRoot = chainToRoot
    }

    /// The root at the top of the chain: the trust anchor a relying party configures.
    public var rootCertificate: Certificate {
        chainToRoot.last ?? certificate
    }

    /// The certificates `x5c` carries after the leaf: none when the issuer is the root, else the issuer and
    /// the intermediates above it (never the root).
    var x5cAfterLeaf: [Certificate] {
        chainToRoot.isEmpty ? [] : [certificate] + chainToRoot.dropLast()
    }

    /// Makes a self-signed P-256 root CA.
    public static func makeRoot(
        commonName: String = "Latchkey Virtual Attestation Root",
        notValidBefore: Date = Date().addingTimeInterval(-86_400),
        notValidAfter: Date = Date().addingTimeInterval(10 * 365 * 86_400)
    ) throws(VirtualAuthenticatorError) -> AttestationCA {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let name = try distinguishedName(commonName: commonName, organizationalUnit: nil)
        let certificate = try issue(
            publicKey: key.publicKey, subject: name, issuer: name, issuerKey: key, issuerKeyIdentifier: nil,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, isCA: true, aaguid: nil
        )
        return AttestationCA(certificate: certificate, privateKey: key)
    }

    /// Makes a P-256 intermediate CA signed by this one, valid as long as this one.
    public func makeIntermediate(
        commonName: String = "Latchkey Virtual Attestation Intermediate"
    ) throws(VirtualAuthenticatorError) -> AttestationCA {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let intermediate = try issueCertificate(
            publicKey: key.publicKey,
            subject: try Self.distinguishedName(commonName: commonName, organizationalUnit: nil),
            isCA: true, aaguid: nil
        )
        return AttestationCA(certificate: intermediate, privateKey: key, chainToRoot: [certificate] + chainToRoot)
    }

    /// Issues an attestation certificate meeting WebAuthn §8.2.1: version 3; subject C, O,
    /// OU = "Authenticator Attestation", CN; basicConstraints CA:false; and, when `aaguid` is given, the
    /// non-critical id-fido-gen-ce-aaguid extension holding it. Valid for as long as this CA.
    func issueAttestationCertificate(
        publicKey: Certificate.PublicKey, commonName: String, aaguid: AAGUID?
    ) throws(VirtualAuthenticatorError) -> Certificate {
        let subject = try Self.distinguishedName(
            commonName: commonName, organizationalUnit: "Authenticator Attestation")
        return try issueCertificate(publicKey: publicKey, subject: subject, isCA: false, aaguid: aaguid)
    }

    private func issueCertificate(
        publicKey: Certificate.PublicKey, subject: DistinguishedName, isCA: Bool, aaguid: AAGUID?
    ) throws(VirtualAuthenticatorError) -> Certificate {
        let issuerKeyIdentifier = (try? certificate.extensions.subjectKeyIdentifier)?.keyIdentifier
        return try Self.issue(
            publicKey: publicKey, subject: subject, issuer: certificate.subject, issuerKey: privateKey,
            issuerKeyIdentifier: issuerKeyIdentifier, notValidBefore: certificate.notValidBefore,
            notValidAfter: certificate.notValidAfter, isCA: isCA, aaguid: aaguid
        )
    }

    private static func issue(
        publicKey: Certificate.PublicKey, subject: DistinguishedName, issuer: DistinguishedName,
        issuerKey: Certificate.PrivateKey, issuerKeyIdentifier: ArraySlice<UInt8>?,
        notValidBefore: Date, notValidAfter: Date, isCA: Bool, aaguid: AAGUID?
    ) throws(VirtualAuthenticatorError) -> Certificate {
        do {
            let extensions = try Certificate.Extensions {
                if isCA {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                } else {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                }
                SubjectKeyIdentifier(hash: publicKey)
                if let issuerKeyIdentifier {
                    AuthorityKeyIdentifier(keyIdentifier: issuerKeyIdentifier)
                }
                if let aaguid {
                    try aaguidExtension(aaguid)
                }
            }
            return try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
                notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: issuer, subject: subject,
                extensions: extensions, issuerPrivateKey: issuerKey
            )
        } catch {
            throw .certificateIssuanceFailed("\(subject): \(error)")
        }
    }

    /// id-fido-gen-ce-aaguid (1.3.6.1.4.1.45724.1.1.4) = OCTET STRING(AAGUID), not critical.
    private static func aaguidExtension(_ aaguid: AAGUID) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1OctetString(contentBytes: ArraySlice(aaguid.bytes)))
        return Certificate.Extension(oid: .fidoAAGUID, critical: false, value: ArraySlice(serializer.serializedBytes))
    }

    private static func distinguishedName(
        commonName: String, organizationalUnit: String?
    ) throws(VirtualAuthenticatorError) -> DistinguishedName {
        do {
            return try DistinguishedName {
                CountryName("US")
                OrganizationName("Latchkey")
                if let organizationalUnit {
                    OrganizationalUnitName(organizationalUnit)
                }
                CommonName(commonName)
            }
        } catch {
            throw .certificateIssuanceFailed("subject name for \(commonName): \(error)")
        }
    }
}
