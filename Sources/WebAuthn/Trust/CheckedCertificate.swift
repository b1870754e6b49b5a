import SwiftASN1
import X509

extension Certificate {
    /// A certificate's validity time has a component that swift-certificates cannot turn into a date.
    struct ValidityTimeOutOfRange: Error {}

    /// `Certificate(derEncoded:)` for certificates from outside, refusing one whose validity times have a component
    /// out of range.
    ///
    /// swift-asn1 accepts a UTCTime or GeneralizedTime with a 61st second (and its own ranges for the other fields),
    /// while swift-certificates' `notValidBefore` and `notValidAfter` assert that the second is below 61: a
    /// certificate with such a time parsed, and reading its validity stopped a debug build (found by the
    /// `certificate-chain` fuzz target, `Fuzz/Corpus/certificate-chain/regression-validity-second-61`). Release builds
    /// skip the assertion; refusing the certificate here keeps both from reading an out-of-range time.
    init(checkedDEREncoded der: [UInt8]) throws {
        try Self.checkValidityTimes(der)
        self = try Certificate(derEncoded: der)
    }

    /// Walks `Certificate → TBSCertificate → validity` and checks both times' components.
    private static func checkValidityTimes(_ der: [UInt8]) throws {
        let root = try DER.parse(der)
        let shape = ASN1Error.invalidASN1Object(reason: "a certificate is a SEQUENCE holding a TBSCertificate SEQUENCE")
        guard case .constructed(let certificateFields) = root.content else { throw shape }
        var certificate = certificateFields.makeIterator()
        guard let tbs = certificate.next(), case .constructed(let tbsFields) = tbs.content else { throw shape }
        var fields = tbsFields.makeIterator()
        // [0] version (optional), the serial number, the signature algorithm and the issuer come before the validity.
        if fields.next()?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            _ = fields.next()
        }
        _ = fields.next()
        _ = fields.next()
        guard let validity = fields.next(), case .constructed(let times) = validity.content else {
            throw ASN1Error.invalidASN1Object(reason: "a TBSCertificate has a validity SEQUENCE")
        }
        for time in times {
            let components: (month: Int, day: Int, hours: Int, minutes: Int, seconds: Int)
            if time.identifier == UTCTime.defaultIdentifier {
                let utc = try UTCTime(derEncoded: time)
                components = (utc.month, utc.day, utc.hours, utc.minutes, utc.seconds)
            } else {
                let generalized = try GeneralizedTime(derEncoded: time)
                components = (
                    generalized.month, generalized.day, generalized.hours, generalized.minutes, generalized.seconds
                )
            }
            // The ranges swift-certificates' date arithmetic asserts.
            guard (1...12).contains(components.month), (0...31).contains(components.day),
                (0..<24).contains(components.hours),
                (0..<60).contains(components.minutes), (0..<61).contains(components.seconds)
            else { throw ValidityTimeOutOfRange() }
        }
    }
}
