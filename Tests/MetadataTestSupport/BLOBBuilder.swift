import Crypto
import Foundation
import WebAuthn
import X509

/// Builds and signs MDS3 BLOBs the way the FIDO service does: `base64url(header).base64url(payload).base64url(sig)`
/// with an ES256 signature and the chain in `x5c`.
public struct BLOBBuilder {
    public var number = 42
    public var nextUpdate = TestIssuer.now + 20 * TestIssuer.day
    public var entries: [[String: Any]] = []
    /// The chain sent in `x5c`, leaf first; `signer` signs.
    public var chain: [TestIssuer]
    public var signer: P256.Signing.PrivateKey

    public init(chain: [TestIssuer]) {
        self.chain = chain
        signer = chain[0].key
    }

    /// An entry for a FIDO2 authenticator.
    public static func entry(
        aaguid: String? = nil, keyIdentifiers: [String] = [], description: String, roots: [Certificate] = [],
        statuses: [(String, String)] = [("FIDO_CERTIFIED_L1", "2020-01-01")]
    ) -> [String: Any] {
        var statement: [String: Any] = [
            "description": description, "schema": 3, "protocolFamily": "fido2", "authenticatorVersion": 5,
            "attestationTypes": ["basic_full"],
            "attestationRootCertificates": roots.map {
                Data((try? $0.serializeAsPEM().derBytes) ?? []).base64EncodedString()
            },
        ]
        var entry: [String: Any] = [
            "statusReports": statuses.map { ["status": $0.0, "effectiveDate": $0.1] },
            "timeOfLastStatusChange": "2020-01-01",
        ]
        if let aaguid {
            entry["aaguid"] = aaguid
            statement["aaguid"] = aaguid
        }
        if !keyIdentifiers.isEmpty { entry["attestationCertificateKeyIdentifiers"] = keyIdentifiers }
        entry["metadataStatement"] = statement
        return entry
    }

    public var payload: [String: Any] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return [
            "legalHeader": "test BLOB", "no": number, "nextUpdate": formatter.string(from: nextUpdate),
            "entries": entries,
        ]
    }

    /// The signed JWS text.
    public func build(tamper: Bool = false) throws -> [UInt8] {
        let header: [String: Any] = [
            "alg": "ES256", "typ": "JWT", "x5c": chain.map { Data($0.der).base64EncodedString() },
        ]
        let headerPart = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: header)))
        let payloadPart = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: payload)))
        let signingInput = Array("\(headerPart).\(payloadPart)".utf8)
        var signature = Array(try signer.signature(for: signingInput).rawRepresentation)
        if tamper { signature[5] ^= 0x01 }
        return Array("\(headerPart).\(payloadPart).\(Base64URL.encode(signature))".utf8)
    }
}
