import Foundation

/// Shows bytes as text when they are text: UTF-8 without control characters.
enum ReadableText {
    static func of(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty, let text = String(bytes: bytes, encoding: .utf8) else { return nil }
        guard !text.unicodeScalars.contains(where: CharacterSet.controlCharacters.contains) else { return nil }
        return text
    }
}
