import Crypto
import Foundation
import X509

/// A SafetyNet attestation response: a compact JWS (RFC 7515) whose header names the signing algorithm and
/// carries the signing certificate chain (`x5c`, standard base64 DER, leaf first), and whose payload holds
/// the attestation result.
struct SafetyNetResponse: Sendable {
    struct Header: Decodable, Sendable {
        let alg: String
        let x5c: [String]
    }

    /// The payload fields WebAuthn checks.
    struct Payload: Decodable, Sendable {
        let nonce: String
        let timestampMs: Int64
        let ctsProfileMatch: Bool
        let basicIntegrity: Bool?
    }

    /// The JWS algorithms SafetyNet may use, as the COSE algorithms that verify them.
    static let algorithms: [String: COSEAlgorithm] = [
        "RS256": .rs256, "RS384": .rs384, "RS512": .rs512,
        "PS256": .ps256, "PS384": .ps384, "PS512": .ps512,
        "ES256": .es256, "ES384": .es384, "ES512": .es512,
    ]

    let algorithm: COSEAlgorithm
    let certificates: [Certificate]
    let payload: Payload
    /// `base64url(header) || "." || base64url(payload)`: the bytes the signature covers.
    let signingInput: [UInt8]
    /// The signature as the verifier expects it (ECDSA converted from JWS's `r || s` to DER).
    let signature: [UInt8]

    /// Parses the compact serialization; fails with `attestation.android-safetynet.responseMalformed`.
    init(compact: [UInt8]) throws(WebAuthnError) {
        func malformed(_ message: String) -> WebAuthnError {
            WebAuthnError(.attestation("android-safetynet", "responseMalformed"), "android-safetynet response \(message)")
        }
        let parts = compact.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw malformed("is not a compact JWS (header.payload.signature)") }
        guard let headerJSON = Base64URL.decode(String(decoding: parts[0], as: UTF8.self)),
              let payloadJSON = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)),
              let rawSignature = Base64URL.decode(String(decoding: parts[2], as: UTF8.self))
        else { throw malformed("has a part that is not base64url") }

        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(headerJSON))
            payload = try JSONDecoder().decode(Payload.self, from: Data(payloadJSON))
        } catch {
            throw malformed("header or payload is not the expected JSON: \(error)")
        }
        guard let algorithm = Self.algorithms[header.alg] else {
            throw WebAuthnError(.unsupportedAlgorithm, "android-safetynet JWS alg \"\(header.alg)\" is not supported")
        }
        self.algorithm = algorithm
        guard !header.x5c.isEmpty else { throw malformed("header x5c is empty") }
        var certificates: [Certificate] = []
        for (index, encoded) in header.x5c.enumerated() {
            guard let der = Base64URL.decode(encoded) else { throw malformed("header x5c[\(index)] is not base64") }
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.certificateMalformed, "android-safetynet x5c[\(index)] is not a valid X.509 certificate: \(error)")
            }
        }
        self.certificates = certificates
        signingInput = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
        signature = Self.verifierSignature(rawSignature, algorithm: algorithm)
    }

    /// JWS ECDSA signatures are `r || s` (RFC 7518 §3.4) and the verifier takes DER, so they are converted;
    /// one of the wrong size becomes empty, which never verifies. RSA signatures pass through.
    private static func verifierSignature(_ raw: [UInt8], algorithm: COSEAlgorithm) -> [UInt8] {
        let der: Data?
        switch algorithm {
        case .es256: der = (try? P256.Signing.ECDSASignature(rawRepresentation: raw))?.derRepresentation
        case .es384: der = (try? P384.Signing.ECDSASignature(rawRepresentation: raw))?.derRepresentation
        case .es512: der = (try? P521.Signing.ECDSASignature(rawRepresentation: raw))?.derRepresentation
        default: return raw
        }
        return der.map { Array($0) } ?? []
    }
}
