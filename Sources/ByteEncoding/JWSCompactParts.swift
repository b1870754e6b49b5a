/// The three parts of a JWS in compact serialization (RFC 7515 §7.1, `header.payload.signature`), split at the dots and
/// base64url-decoded. Nothing is interpreted or verified: the header is JSON bytes for the caller to read (WebAuthn's
/// certificate-chain JWS reads `alg` and `x5c`, Sign in with Apple's tokens `alg` and `kid`).
public struct JWSCompactParts: Sendable, Equatable {
    /// Why bytes are not a compact JWS.
    public enum Failure: Error, Sendable, Equatable {
        /// Not three dot-separated parts; the number found.
        case partCount(Int)
        /// A part that is not base64url.
        case notBase64URL
    }

    /// The decoded protected header: JSON text.
    public let header: [UInt8]
    /// The decoded payload.
    public let payload: [UInt8]
    /// The decoded signature.
    public let signature: [UInt8]
    /// The bytes the signature covers: the encoded header, `.`, the encoded payload, as they came.
    public let signingInput: [UInt8]

    /// Splits `compact` (the token's ASCII) and decodes each part.
    public init(_ compact: some Collection<UInt8>) throws(Failure) {
        let parts = compact.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .partCount(parts.count) }
        guard let header = Self.decode(parts[0]), let payload = Self.decode(parts[1]),
            let signature = Self.decode(parts[2])
        else { throw .notBase64URL }
        self.header = header
        self.payload = payload
        self.signature = signature
        signingInput = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
    }

    private static func decode(_ part: some Collection<UInt8>) -> [UInt8]? {
        Array(part).withUnsafeBufferPointer { Base64URL.decode(utf8: $0) }
    }
}
