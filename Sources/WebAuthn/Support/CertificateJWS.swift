import Crypto
import Foundation
import X509

/// A compact JWS (RFC 7515) signed with a certificate chain in its header (`x5c`, standard base64 DER, leaf
/// first), as SafetyNet responses and FIDO MDS3 BLOBs are. Split by `ByteEncoding`'s `JWSCompactParts`, as Sign in with
/// Apple's `kid`-keyed tokens are. Parsing checks structure only; the caller verifies
/// ``signature`` over ``signingInput`` with the leaf and judges the chain.
struct CertificateJWS: Sendable {
    private struct Header: Decodable {
        let alg: String
        let x5c: [String]
    }

    /// The JWS algorithms these tokens may use, as the COSE algorithms that verify them.
    static let algorithms: [String: COSEAlgorithm] = [
        "RS256": .rs256, "RS384": .rs384, "RS512": .rs512,
        "PS256": .ps256, "PS384": .ps384, "PS512": .ps512,
        "ES256": .es256, "ES384": .es384, "ES512": .es512,
    ]

    let algorithm: COSEAlgorithm
    /// `x5c`, leaf first; never empty.
    let certificates: [Certificate]
    /// The decoded payload (JSON text for both users).
    let payload: [UInt8]
    /// `base64url(header) || "." || base64url(payload)`: the bytes the signature covers.
    let signingInput: [UInt8]
    /// The signature as ``SignatureVerifier`` expects it (ECDSA converted from JWS's `r || s` to DER).
    let signature: [UInt8]

    /// Parses the compact serialization.
    ///
    /// - Parameters:
    ///   - name: what the token is, for messages (`android-safetynet response`, `metadata BLOB`).
    ///   - malformed: the code for a token that is not a well-formed JWS with an `x5c` header.
    ///     A bad certificate fails with `certificate.malformed`, an unknown `alg` with `unsupportedAlgorithm`.
    init(compact: [UInt8], name: String, malformed malformedCode: WebAuthnError.Code) throws(WebAuthnError) {
        func malformed(_ message: String) -> WebAuthnError {
            WebAuthnError(malformedCode, "\(name) \(message)")
        }
        let parts: JWSCompactParts
        do {
            parts = try JWSCompactParts(compact)
        } catch {
            switch error {
            case .partCount:
                throw malformed("is not a compact JWS (header.payload.signature)")
            case .notBase64URL:
                throw malformed("has a part that is not base64url")
            }
        }

        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(parts.header))
        } catch {
            throw malformed("header is not JSON with \"alg\" and \"x5c\"")
        }
        guard let algorithm = Self.algorithms[header.alg] else {
            throw WebAuthnError(.unsupportedAlgorithm, "\(name) JWS alg \"\(header.alg)\" is not supported")
        }
        guard !header.x5c.isEmpty else { throw malformed("header x5c is empty") }
        var certificates: [Certificate] = []
        for (index, encoded) in header.x5c.enumerated() {
            guard let der = Base64URL.decode(encoded) else { throw malformed("header x5c[\(index)] is not base64") }
            do {
                certificates.append(try Certificate(checkedDEREncoded: der))
            } catch {
                throw WebAuthnError(.certificateMalformed, "\(name) x5c[\(index)] is not a valid X.509 certificate")
            }
        }
        self.algorithm = algorithm
        self.certificates = certificates
        payload = parts.payload
        signingInput = parts.signingInput
        signature = Self.verifierSignature(parts.signature, algorithm: algorithm)
    }

    /// The leaf certificate (x5c[0]).
    var leaf: Certificate { certificates[0] }

    /// Whether ``signature`` verifies over ``signingInput`` with the leaf certificate's key.
    func isSignedByLeaf() throws(WebAuthnError) -> Bool {
        try SignatureVerifier(certificateKey: leaf.publicKey, algorithm: algorithm)
            .isValidSignature(signature, for: signingInput)
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
