import Crypto
import Foundation
import SwiftASN1
import WebAuthn
import X509

/// A certificate and its P-256 key: the tests' own MDS root, intermediate and BLOB signer.
struct TestIssuer {
    let certificate: Certificate
    let key: P256.Signing.PrivateKey

    /// The certificate's DER.
    var der: [UInt8] { (try? certificate.serializeAsPEM().derBytes) ?? [] }

    static let now = Date()
    static let day: TimeInterval = 86_400

    /// A self-signed root CA.
    static func root(_ name: String, from start: Date = now - 365 * day, to end: Date = now + 365 * day) throws -> TestIssuer {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let certificate = try make(
            key: key, subject: subject, issuer: subject, issuerKey: key, issuerKeyIdentifier: nil,
            isCA: true, from: start, to: end
        )
        return TestIssuer(certificate: certificate, key: key)
    }

    /// A certificate issued by this one: a CA or a signing leaf.
    func issue(_ name: String, isCA: Bool, from start: Date = now - 30 * day, to end: Date = now + 30 * day) throws -> TestIssuer {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let issuerKeyIdentifier = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        let issued = try Self.make(
            key: key, subject: subject, issuer: certificate.subject, issuerKey: self.key,
            issuerKeyIdentifier: issuerKeyIdentifier, isCA: isCA, from: start, to: end
        )
        return TestIssuer(certificate: issued, key: key)
    }

    private static func make(
        key: P256.Signing.PrivateKey, subject: DistinguishedName, issuer: DistinguishedName, issuerKey: P256.Signing.PrivateKey,
        issuerKeyIdentifier: ArraySlice<UInt8>?, isCA: Bool, from start: Date, to end: Date
    ) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key.publicKey)
        let extensions = try Certificate.Extensions {
            if isCA {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            } else {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
            }
            SubjectKeyIdentifier(hash: publicKey)
            if let issuerKeyIdentifier { AuthorityKeyIdentifier(keyIdentifier: issuerKeyIdentifier) }
        }
        let made = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: start, notValidAfter: end, issuer: issuer, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(issuerKey)
        )
        // Round-trip through DER so serial numbers compare as the verifier will parse them.
        return try Certificate(derEncoded: made.serializeAsPEM().derBytes)
    }

    /// A DER CRL from this issuer listing `revoked`, valid from `thisUpdate` to `nextUpdate`.
    func revocationList(
        revoking revoked: [Certificate], thisUpdate: Date = now - day, nextUpdate: Date = now + 7 * day
    ) throws -> [UInt8] {
        func der(_ value: some DERSerializable) throws -> [UInt8] {
            var serializer = DER.Serializer()
            try serializer.serialize(value)
            return serializer.serializedBytes
        }
        let ecdsaWithSHA256 = DERBuilder.sequence(try der(ASN1ObjectIdentifier("1.2.840.10045.4.3.2")))
        let entries = try revoked.map { certificate in
            var serial = Array(certificate.serialNumber.bytes)
            if let first = serial.first, first & 0x80 != 0 { serial.insert(0, at: 0) }  // DER INTEGER stays positive
            return DERBuilder.sequence(DERBuilder.tlv([0x02], serial), try der(UTCTime(thisUpdate)))
        }
        let tbs = DERBuilder.sequence(
            DERBuilder.integer(1), ecdsaWithSHA256, try der(certificate.subject),
            try der(UTCTime(thisUpdate)), try der(UTCTime(nextUpdate)),
            entries.isEmpty ? [] : DERBuilder.sequence(entries.flatMap { $0 })
        )
        let signature = try key.signature(for: tbs).derRepresentation
        return DERBuilder.sequence(tbs, ecdsaWithSHA256, DERBuilder.tlv([0x03], [0x00] + Array(signature)))
    }
}

extension UTCTime {
    /// The UTCTime of `date` (whole seconds).
    init(_ date: Date) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        try self.init(
            year: c.year ?? 2000, month: c.month ?? 1, day: c.day ?? 1, hours: c.hour ?? 0, minutes: c.minute ?? 0,
            seconds: c.second ?? 0
        )
    }
}
