import Foundation
import X509

/// A SafetyNet attestation response: a compact JWS (``CertificateJWS``) signed by `attest.android.com`, whose
/// payload holds the attestation result.
struct SafetyNetResponse: Sendable {
    /// The payload fields WebAuthn checks.
    struct Payload: Decodable, Sendable {
        let nonce: String
        let timestampMs: Int64
        let ctsProfileMatch: Bool
        let basicIntegrity: Bool?
    }

    let jws: CertificateJWS
    let payload: Payload

    var algorithm: COSEAlgorithm { jws.algorithm }
    var certificates: [Certificate] { jws.certificates }
    var signingInput: [UInt8] { jws.signingInput }
    var signature: [UInt8] { jws.signature }

    /// Parses the compact serialization; fails with `attestation.android-safetynet.responseMalformed`.
    init(compact: [UInt8]) throws(WebAuthnError) {
        let malformed = WebAuthnError.Code.attestation("android-safetynet", "responseMalformed")
        jws = try CertificateJWS(compact: compact, name: "android-safetynet response", malformed: malformed)
        do {
            payload = try JSONDecoder().decode(Payload.self, from: Data(jws.payload))
        } catch {
            throw WebAuthnError(malformed, "android-safetynet response payload is not the expected JSON")
        }
    }
}
