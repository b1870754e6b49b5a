import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import WebAuthn
import X509

/// An X.509 certificate as printed: a summary (who, by whom, when) for `verify`, and every field for `inspect`.
struct CertificateReport: Encodable {
    let subject: String
    let issuer: String
    let notBefore: Date
    let notAfter: Date
    // The fields below are only in detailed reports.
    let serialNumber: String?
    let version: String?
    let signatureAlgorithm: String?
    let publicKey: String?
    let isCertificateAuthority: Bool?
    let sha256: String?
    let extensions: [CertificateExtensionReport]?

    /// Subject, issuer and validity.
    static func summary(_ certificate: Certificate) -> CertificateReport {
        CertificateReport(
            subject: certificate.subject.description, issuer: certificate.issuer.description,
            notBefore: certificate.notValidBefore, notAfter: certificate.notValidAfter,
            serialNumber: nil, version: nil, signatureAlgorithm: nil, publicKey: nil,
            isCertificateAuthority: nil, sha256: nil, extensions: nil
        )
    }

    /// Every field `inspect` shows; `der` is the certificate's encoding, for its fingerprint.
    static func detailed(_ certificate: Certificate, der: [UInt8]) -> CertificateReport {
        var isCA = false
        if let constraints = try? certificate.extensions.basicConstraints, case .isCertificateAuthority = constraints {
            isCA = true
        }
        return CertificateReport(
            subject: certificate.subject.description, issuer: certificate.issuer.description,
            notBefore: certificate.notValidBefore, notAfter: certificate.notValidAfter,
            serialNumber: Hex.encode(certificate.serialNumber.bytes),
            version: "\(certificate.version)",
            signatureAlgorithm: "\(certificate.signatureAlgorithm)".replacingOccurrences(
                of: "SignatureAlgorithm.", with: ""),
            publicKey: keyDescription(certificate.publicKey),
            isCertificateAuthority: isCA,
            sha256: Hex.encode(SHA256.hash(data: der)),
            extensions: certificate.extensions.map(CertificateExtensionReport.init)
        )
    }

    /// `EC P-256`, `RSA 2048`, `Ed25519`.
    static func keyDescription(_ key: Certificate.PublicKey) -> String {
        if P256.Signing.PublicKey(key) != nil { return "EC P-256" }
        if P384.Signing.PublicKey(key) != nil { return "EC P-384" }
        if P521.Signing.PublicKey(key) != nil { return "EC P-521" }
        if Curve25519.Signing.PublicKey(key) != nil { return "Ed25519" }
        if let rsa = _RSA.Signing.PublicKey(key) { return "RSA \(rsa.keySizeInBits)" }
        return key.description
    }
}

/// One certificate extension: its OID, a name where WebAuthn or X.509 defines one, and its value decoded when known.
struct CertificateExtensionReport: Encodable {
    let oid: String
    let name: String?
    let critical: Bool
    let valueHex: String
    let decoded: String?

    init(_ ext: Certificate.Extension) {
        oid = ext.oid.description
        name = Self.names[ext.oid.description]
        critical = ext.critical
        valueHex = Hex.encode(ext.value)
        decoded = Self.decode(ext)
    }

    private static let names: [String: String] = [
        "2.5.29.14": "subjectKeyIdentifier",
        "2.5.29.15": "keyUsage",
        "2.5.29.17": "subjectAltName",
        "2.5.29.19": "basicConstraints",
        "2.5.29.30": "nameConstraints",
        "2.5.29.31": "cRLDistributionPoints",
        "2.5.29.32": "certificatePolicies",
        "2.5.29.35": "authorityKeyIdentifier",
        "2.5.29.37": "extKeyUsage",
        "1.3.6.1.5.5.7.1.1": "authorityInfoAccess",
        "1.3.6.1.4.1.45724.1.1.4": "id-fido-gen-ce-aaguid",
        "1.3.6.1.4.1.45724.2.1.1": "id-fido-u2f-ce-transports",
        "1.3.6.1.4.1.11129.2.1.17": "android key attestation",
        "1.2.840.113635.100.8.2": "apple attestation nonce",
    ]

    /// The X.509 extensions swift-certificates decodes itself.
    private static let x509Known: Set<ASN1ObjectIdentifier> = [
        ASN1ObjectIdentifier.X509ExtensionID.subjectKeyIdentifier,
        ASN1ObjectIdentifier.X509ExtensionID.keyUsage,
        ASN1ObjectIdentifier.X509ExtensionID.subjectAlternativeName,
        ASN1ObjectIdentifier.X509ExtensionID.basicConstraints,
        ASN1ObjectIdentifier.X509ExtensionID.nameConstraints,
        ASN1ObjectIdentifier.X509ExtensionID.authorityKeyIdentifier,
        ASN1ObjectIdentifier.X509ExtensionID.extendedKeyUsage,
        ASN1ObjectIdentifier.X509ExtensionID.authorityInformationAccess,
    ]

    private static let fidoTransportsOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 2, 1, 1]

    private static func decode(_ ext: Certificate.Extension) -> String? {
        if x509Known.contains(ext.oid) { return ext.description }
        if ext.oid == .fidoAAGUID {
            guard let value = try? ASN1OctetString(derEncoded: ext.value), value.bytes.count == 16 else { return nil }
            return AAGUID(bytes: Array(value.bytes)).description
        }
        if ext.oid == fidoTransportsOID {
            return fidoTransports(ext.value)
        }
        return nil
    }

    /// FIDO U2F transports: `BIT STRING { bluetoothRadio(0), bluetoothLowEnergyRadio(1), uSB(2), nFC(3), uSBInternal(4) }`.
    private static func fidoTransports(_ der: ArraySlice<UInt8>) -> String? {
        guard let bits = try? ASN1BitString(derEncoded: der) else { return nil }
        let names = ["bluetoothRadio", "bluetoothLowEnergyRadio", "usb", "nfc", "usbInternal"]
        let bytes = Array(bits.bytes)
        let set = names.indices.filter { index in
            let byte = index / 8
            return byte < bytes.count && bytes[byte] & (0x80 >> UInt8(index % 8)) != 0
        }
        return set.map { names[$0] }.joined(separator: ", ")
    }
}
