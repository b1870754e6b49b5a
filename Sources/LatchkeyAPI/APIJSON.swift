import Foundation

/// The JSON coders both ends of the Latchkey API use, so server and client agree on dates and key order.
///
/// Dates are ISO 8601 strings in UTC (`2026-11-22T15:08:07Z`); binary values are unpadded base64url
/// (``WebAuthn/Base64URLBytes``).
public enum APIJSON {
    /// An encoder for request and response bodies: ISO 8601 dates, sorted keys (stable output).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for request and response bodies: ISO 8601 dates.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
