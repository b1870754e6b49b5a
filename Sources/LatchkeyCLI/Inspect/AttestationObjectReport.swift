import CBOR
import SwiftASN1
import WebAuthn
import X509

/// An attestation object spelled out: format, statement (algorithm, signature, certificates) and authenticator data.
struct AttestationObjectReport: Encodable {
    struct Statement: Encodable {
        let alg: NamedNumber?
        let sigLength: Int?
        let sig: String?
        let x5c: [Parsed<CertificateReport>]?
        /// Fields other than alg, sig and x5c (`ver`, `certInfo`, `pubArea`, `response`, …), rendered generically.
        let otherFields: [String: JSONValue]?

        init(_ statement: CBORMap) {
            alg = statement[text: "alg"]?.intValue.map { NamedNumber(COSEAlgorithm(rawValue: $0)) }
            let sigBytes = statement[text: "sig"]?.bytesValue
            sigLength = sigBytes?.count
            sig = sigBytes.map { Base64URL.encode($0) }
            x5c = statement[text: "x5c"]?.arrayValue.map { items in
                items.enumerated().map { index, item in
                    Parsed { () throws(WebAuthnError) in try Self.certificate(item, index: index) }
                }
            }
            var others = CBORRendering.object(statement)
            for known in ["alg", "sig", "x5c"] { others[known] = nil }
            otherFields = others.isEmpty ? nil : others
        }

        private static func certificate(_ item: CBORValue, index: Int) throws(WebAuthnError) -> CertificateReport {
            guard let der = item.bytesValue else {
                throw WebAuthnError(.certificateMalformed, "x5c[\(index)] is not a byte string")
            }
            do {
                return CertificateReport.detailed(try Certificate(derEncoded: der), der: der)
            } catch {
                throw WebAuthnError(.certificateMalformed, "x5c[\(index)] is not a valid X.509 certificate: \(error)")
            }
        }
    }

    let fmt: String
    let attStmt: Statement
    let authData: AuthenticatorDataReport

    init(_ object: AttestationObject) {
        fmt = object.format
        attStmt = Statement(object.statement)
        authData = AuthenticatorDataReport(object.authenticatorData)
    }

    /// Whether a CBOR map has the attestation object's fields.
    static func matches(_ map: CBORMap) -> Bool {
        map[text: "fmt"] != nil && map[text: "authData"] != nil
    }
}
