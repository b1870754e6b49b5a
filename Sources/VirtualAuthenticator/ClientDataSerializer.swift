/// Writes `clientDataJSON` the way a browser does (WebAuthn L3 §5.8.1.2, the limited-verification
/// serialization): the members `type`, `challenge`, `origin`, `crossOrigin` and, when present, `topOrigin`,
/// in that order, with strings escaped by `CCDToString`.
struct ClientDataSerializer {
    var type: String
    /// The challenge as it goes into the JSON: base64url text.
    var challenge: String
    var origin: String
    var crossOrigin: Bool
    var topOrigin: String?

    func serialize() -> [UInt8] {
        var out = Array(#"{"type":"#.utf8)
        Self.appendString(type, to: &out)
        out += Array(#","challenge":"#.utf8)
        Self.appendString(challenge, to: &out)
        out += Array(#","origin":"#.utf8)
        Self.appendString(origin, to: &out)
        out += Array(#","crossOrigin":"#.utf8)
        out += Array((crossOrigin ? "true" : "false").utf8)
        if let topOrigin {
            out += Array(#","topOrigin":"#.utf8)
            Self.appendString(topOrigin, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `CCDToString`: `"` and `\` are backslash-escaped, other code points below U+0020 become `\uXXXX`
    /// with lower-case hex, everything else is written as UTF-8.
    ///
    /// Byte by byte: every byte of a code point from U+0080 up is 0x80 or more, so the bytes below 0x20, `"` and `\`
    /// are exactly the code points the rule escapes, and the rest is copied in runs.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
                default: out += Array(#"\u00"#.utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0f)]]
                }
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
