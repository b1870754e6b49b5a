import ByteEncoding
import Foundation

/// The protected header of a JWS, as far as Apple's tokens use it.
public struct JWSHeader: Codable, Sendable, Equatable {
    /// The signature algorithm (`RS256` for Apple's tokens, `ES256` for client secrets).
    public var alg: String
    /// The key identifier.
    public var kid: String?
    /// The token type, if present.
    public var typ: String?

    /// Makes a header.
    public init(alg: String, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.kid = kid
        self.typ = typ
    }
}

/// A JWS in compact serialization (`header.payload.signature`) as Apple's tokens and client secrets use it (a key named
/// by `kid`), split and decoded (`ByteEncoding`'s `JWSCompactParts`) but not yet verified.
public struct CompactJWS: Sendable {
    /// The decoded protected header.
    public let header: JWSHeader
    /// The decoded payload bytes (JSON for every token this module handles).
    public let payload: [UInt8]
    /// The bytes the signature covers: the ASCII of `base64url(header).base64url(payload)`.
    public let signingInput: [UInt8]
    /// The decoded signature bytes.
    public let signature: [UInt8]

    /// Splits and decodes a compact JWS. Throws `apple.malformedToken` for anything that is not three base64url
    /// parts with a JSON-object header that names an algorithm.
    public init(_ token: String) throws(AppleSignInError) {
        let parts: JWSCompactParts
        do {
            parts = try JWSCompactParts(token.utf8)
        } catch {
            switch error {
            case .partCount(let count):
                throw AppleSignInError(
                    .malformedToken, "a compact JWS has three dot-separated parts, this has \(count)")
            case .notBase64URL:
                throw AppleSignInError(.malformedToken, "a part of the JWS is not base64url")
            }
        }
        header = try decodeJSON(JWSHeader.self, from: parts.header, code: .malformedToken, what: "JWS header")
        payload = parts.payload
        signingInput = parts.signingInput
        signature = parts.signature
    }

    /// Serializes a header and payload and signs them with `sign`, which receives the signing input.
    public static func serialize<Failure: Error>(
        header: JWSHeader,
        payload: [UInt8],
        sign: ([UInt8]) throws(Failure) -> [UInt8]
    ) throws(Failure) -> String {
        let encodedHeader = Base64URL.encode(encodeJSON(header))
        let signingInput = encodedHeader + "." + Base64URL.encode(payload)
        let signature = try sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}

/// Decodes JSON into `T`, turning any decoding failure into an ``AppleSignInError`` with `code`.
func decodeJSON<T: Decodable>(_ type: T.Type, from bytes: [UInt8], code: AppleSignInError.Code, what: String)
    throws(AppleSignInError) -> T
{
    do {
        return try JSONDecoder().decode(T.self, from: Data(bytes))
    } catch let DecodingError.keyNotFound(key, _) {
        throw AppleSignInError(code, "\(what) lacks \"\(key.stringValue)\"")
    } catch let DecodingError.typeMismatch(_, context) {
        throw AppleSignInError(
            code,
            "\(what) has a value of the wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
    } catch {
        throw AppleSignInError(code, "\(what) is not valid JSON")
    }
}

/// Encodes a value as compact JSON with sorted keys; the values this module encodes cannot fail to encode.
func encodeJSON<T: Encodable>(_ value: T) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
}
