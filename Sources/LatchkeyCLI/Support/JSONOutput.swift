import Foundation

/// The one JSON style every command prints: pretty, keys sorted, slashes unescaped (origins stay readable).
enum JSONOutput {
    static func render(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Only non-finite floats can fail to encode; say so in the same error shape rather than crash.
            return #"{"error":{"code":"internalError","message":"the result could not be encoded as JSON"}}"#
        }
    }
}
