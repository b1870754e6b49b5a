import Foundation
import WebAuthn

/// The value given to `inspect`, and the ways it can be read: JSON text, PEM, hex, base64url/base64 or raw bytes.
struct InspectInput {
    enum Source: String, Encodable {
        case argument, file, stdin
    }

    /// One way of reading the input, in the order they are tried.
    enum Reading {
        case json([UInt8])
        case pem(String)
        case bytes([UInt8], encoding: String)
    }

    let source: Source
    let readings: [Reading]

    /// Reads `value`: `-` is standard input, an existing file's path is that file, anything else is the value itself.
    static func resolve(_ value: String, io: CommandIO) throws(CommandError) -> InspectInput {
        if value == "-" {
            return InspectInput(source: .stdin, raw: io.readStandardInput())
        }
        if InputFile.exists(value) {
            return InspectInput(source: .file, raw: try InputFile.read(value, io: io, what: "input"))
        }
        return InspectInput(source: .argument, raw: Array(value.utf8))
    }

    init(source: Source, raw: [UInt8]) {
        self.source = source
        var readings: [Reading] = []
        if let text = String(bytes: raw, encoding: .utf8) {
            readings = Self.textReadings(text)
        }
        // A file or standard input may hold the binary value itself (a DER certificate, raw CBOR).
        if source != .argument, !raw.isEmpty {
            readings.append(.bytes(raw, encoding: "binary"))
        }
        self.readings = readings
    }

    private static func textReadings(_ text: String) -> [Reading] {
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.hasPrefix("{") { return [.json(Array(value.utf8))] }
        if value.contains("-----BEGIN ") { return [.pem(value)] }
        // Values pasted out of JSON or logs: drop surrounding quotes and any line breaks.
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        value.removeAll { $0.isWhitespace }
        var readings: [Reading] = []
        if let bytes = hexBytes(value) {
            readings.append(.bytes(bytes, encoding: "hex"))
        }
        if let bytes = Base64URL.decode(value), !bytes.isEmpty {
            let standard = value.contains { $0 == "+" || $0 == "/" || $0 == "=" }
            readings.append(.bytes(bytes, encoding: standard ? "base64" : "base64url"))
        }
        return readings
    }

    /// Hex digits, with an optional `0x` prefix and `:` separators allowed.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard let bytes = Hex.decode(digits.filter { $0 != ":" }), !bytes.isEmpty else { return nil }
        return bytes
    }
}
