import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate and its P-256 key: the tests' own MDS root, intermediate and BLOB signer.
public struct TestIssuer: Sendable {
    public let certificate: Certificate
    public let key: P256.Signing.PrivateKey

    public init(certificate: Certificate, key: P256.Signing.PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    /// The certificate's DER.
    public var der: [UInt8] { (try? certificate.serializeAsPEM().derBytes) ?? [] }

    public static let now = Date()
    public static let day: TimeInterval = 86_400

    /// A self-signed root CA.
    public static func root(_ name: String, from start: Date = now - 365 * day, to end: Date = now + 365 * day) throws
        -> TestIssuer
    {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let certificate = try make(
            key: key, subject: subject, issuer: subject, issuerKey: key, issuerKeyIdentifier: nil,
            isCA: true, from: start, to: end
        )
        return TestIssuer(certificate: certificate, key: key)
    }

    /// A certificate issued by this one: a CA or a signing leaf.
    public func issue(_ name: String, isCA: Bool, from start: Date = now - 30 * day, to end: Date = now + 30 * day)
        throws -> TestIssuer
    {
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
        key: P256.Signing.PrivateKey, subject: DistinguishedName, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey,
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
}

extension UTCTime {
    /// The UTCTime of `date` (whole seconds).
    public init(_ date: Date) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        try self.init(
            year: c.year ?? 2000, month: c.month ?? 1, day: c.day ?? 1, hours: c.hour ?? 0, minutes: c.minute ?? 0,
            seconds: c.second ?? 0
        )
    }
}
