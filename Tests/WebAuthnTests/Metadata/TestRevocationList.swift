import Crypto
import Foundation
import MetadataTestSupport
import SwiftASN1
import X509

extension TestIssuer {
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
