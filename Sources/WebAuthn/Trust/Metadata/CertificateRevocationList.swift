import Foundation
import SwiftASN1
import X509

/// An X.509 certificate revocation list (RFC 5280 §5), parsed for the checks a metadata BLOB's chain needs:
/// who issued it, when it is valid, which serial numbers it revokes, and whether its signature verifies.
///
/// ```
/// CertificateList ::= SEQUENCE { tbsCertList TBSCertList, signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }
/// TBSCertList ::= SEQUENCE { version INTEGER OPTIONAL, signature AlgorithmIdentifier, issuer Name, thisUpdate Time,
///     nextUpdate Time OPTIONAL, revokedCertificates SEQUENCE OF SEQUENCE { userCertificate INTEGER,
///     revocationDate Time, crlEntryExtensions Extensions OPTIONAL } OPTIONAL, crlExtensions [0] EXPLICIT Extensions OPTIONAL }
/// ```
public struct CertificateRevocationList: Sendable {
    /// The CA that issued the list; it revokes only certificates it issued.
    public let issuer: DistinguishedName
    /// When the list was issued.
    public let thisUpdate: Date
    /// When the next list is due; after it this one is stale.
    public let nextUpdate: Date?
    /// The serial numbers of the revoked certificates.
    public let revokedSerialNumbers: Set<Certificate.SerialNumber>
    private let signedBytes: [UInt8]
    private let signatureAlgorithm: Certificate.SignatureAlgorithm?
    private let signature: [UInt8]

    /// Parses a DER CRL; fails with `metadata.malformed`.
    public init(derEncoded der: [UInt8]) throws(WebAuthnError) {
        do {
            let root = try DER.parse(der)
            let parsed = try DER.sequence(root, identifier: .sequence) { nodes in
                guard let tbs = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no tbsCertList") }
                let algorithm = try Self.algorithmIdentifier(&nodes)
                let signature = try ASN1BitString(derEncoded: &nodes)
                return (tbs, algorithm, Array(signature.bytes))
            }
            signedBytes = Array(parsed.0.encodedBytes)
            signatureAlgorithm = Self.signatureAlgorithms[parsed.1]
            signature = parsed.2
            (issuer, thisUpdate, nextUpdate, revokedSerialNumbers) = try Self.parseTBS(parsed.0)
        } catch {
            throw WebAuthnError(.metadataMalformed, "CRL is not a DER CertificateList: \(error)")
        }
    }

    /// Whether `issuer`'s key verifies this CRL's signature (an unknown signature algorithm never does).
    public func isSigned(by issuer: Certificate) -> Bool {
        guard let signatureAlgorithm else { return false }
        return issuer.publicKey.isValidSignature(signature, for: signedBytes, signatureAlgorithm: signatureAlgorithm)
    }

    /// Whether the CRL lists `certificate` (its issuer must be this CRL's issuer).
    public func revokes(_ certificate: Certificate) -> Bool {
        certificate.issuer == issuer && revokedSerialNumbers.contains(certificate.serialNumber)
    }

    private static let signatureAlgorithms: [ASN1ObjectIdentifier: Certificate.SignatureAlgorithm] = [
        [1, 2, 840, 10045, 4, 3, 2]: .ecdsaWithSHA256, [1, 2, 840, 10045, 4, 3, 3]: .ecdsaWithSHA384,
        [1, 2, 840, 10045, 4, 3, 4]: .ecdsaWithSHA512, [1, 2, 840, 113549, 1, 1, 5]: .sha1WithRSAEncryption,
        [1, 2, 840, 113549, 1, 1, 11]: .sha256WithRSAEncryption,
        [1, 2, 840, 113549, 1, 1, 12]: .sha384WithRSAEncryption,
        [1, 2, 840, 113549, 1, 1, 13]: .sha512WithRSAEncryption, [1, 3, 101, 112]: .ed25519,
    ]

    /// Reads an AlgorithmIdentifier and returns its OID (parameters are implied by the OIDs above).
    private static func algorithmIdentifier(_ nodes: inout ASN1NodeCollection.Iterator) throws -> ASN1ObjectIdentifier {
        guard let node = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no AlgorithmIdentifier") }
        return try DER.sequence(node, identifier: .sequence) { inner in
            let oid = try ASN1ObjectIdentifier(derEncoded: &inner)
            while inner.next() != nil {}
            return oid
        }
    }

    private static func parseTBS(
        _ tbs: ASN1Node
    ) throws -> (DistinguishedName, Date, Date?, Set<Certificate.SerialNumber>) {
        try DER.sequence(tbs, identifier: .sequence) { nodes in
            var node = nodes.next()
            if node?.identifier == .integer { node = nodes.next() }  // version v2
            guard node?.identifier == .sequence else {
                throw ASN1Error.invalidASN1Object(reason: "no signature algorithm")
            }
            guard let issuerNode = nodes.next(), let thisUpdateNode = nodes.next() else {
                throw ASN1Error.invalidASN1Object(reason: "no issuer or thisUpdate")
            }
            let issuer = try DistinguishedName(derEncoded: issuerNode)
            let thisUpdate = try time(thisUpdateNode)
            var nextUpdate: Date?
            var revoked: Set<Certificate.SerialNumber> = []
            while let field = nodes.next() {
                if field.identifier == .utcTime || field.identifier == .generalizedTime {
                    guard nextUpdate == nil, revoked.isEmpty else {
                        throw ASN1Error.invalidASN1Object(reason: "misplaced time")
                    }
                    nextUpdate = try time(field)
                } else if field.identifier == .sequence {
                    revoked = try revokedSerialNumbers(field)
                }  // else crlExtensions [0]
            }
            return (issuer, thisUpdate, nextUpdate, revoked)
        }
    }

    private static func revokedSerialNumbers(_ node: ASN1Node) throws -> Set<Certificate.SerialNumber> {
        var serials: Set<Certificate.SerialNumber> = []
        try DER.sequence(node, identifier: .sequence) { entries in
            while let entry = entries.next() {
                try DER.sequence(entry, identifier: .sequence) { fields in
                    serials.insert(Certificate.SerialNumber(bytes: try ArraySlice<UInt8>(derEncoded: &fields)))
                    while fields.next() != nil {}
                }
            }
        }
        return serials
    }

    /// `Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }` as a Date.
    private static func time(_ node: ASN1Node) throws -> Date {
        let fields: (year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int)
        if node.identifier == .utcTime {
            let time = try UTCTime(derEncoded: node)
            fields = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        } else {
            let time = try GeneralizedTime(derEncoded: node)
            fields = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        }
        let components = DateComponents(
            year: fields.year, month: fields.month, day: fields.day, hour: fields.hours, minute: fields.minutes,
            second: fields.seconds
        )
        guard let date = MetadataDate.utcCalendar.date(from: components) else {
            throw ASN1Error.invalidASN1Object(reason: "bad time")
        }
        return date
    }
}
