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
    static func appendString(_ string: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case 0x5c:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x20...:
                out += Array(String(scalar).utf8)
            default:
                let value = Int(scalar.value)
                out += Array(#"\u00"#.utf8) + [hex[value >> 4], hex[value & 0x0f]]
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
