import CBOR
import WebAuthn

/// Renders any CBOR value as JSON a person can read: integers as numbers, byte strings as
/// `{"bytes": <base64url>, "length": n}`, maps with their keys written as text.
enum CBORRendering {
    /// The largest integer a JSON number holds exactly (2^53); larger ones are printed as strings.
    private static let exactIntegerLimit: UInt64 = 1 << 53

    static func json(_ value: CBORValue) -> JSONValue {
        switch value {
        case .unsignedInt(let n):
            return n <= exactIntegerLimit ? .number(Double(n)) : .string(String(n))
        case .negativeInt(let n):
            return n < exactIntegerLimit ? .number(-1 - Double(n)) : .string(negativeText(n))
        case .byteString(let bytes):
            return bytesJSON(bytes)
        case .textString(let text):
            return .string(text)
        case .array(let items):
            return .array(items.map(json))
        case .map(let map):
            return .object(object(map))
        case .tagged(let tag, let inner):
            return .object(["tag": .number(Double(tag)), "value": json(inner)])
        case .bool(let flag):
            return .bool(flag)
        case .null:
            return .null
        case .float(let double):
            return double.isFinite ? .number(double) : .string("\(double)")
        }
    }

    /// A CBOR map as a JSON object; keys that are not text are written in CBOR diagnostic style (`1`, `-2`).
    static func object(_ map: CBORMap) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for (key, value) in map.entries {
            object[keyText(key)] = json(value)
        }
        return object
    }

    /// Bytes as `{"bytes": <base64url>, "length": n}`.
    static func bytesJSON(_ bytes: [UInt8]) -> JSONValue {
        .object(["bytes": .string(Base64URL.encode(bytes)), "length": .number(Double(bytes.count))])
    }

    private static func keyText(_ key: CBORValue) -> String {
        switch key {
        case .textString(let text): return text
        case .unsignedInt(let n): return String(n)
        case .negativeInt(let n): return negativeText(n)
        default: return "\(key)"
        }
    }

    /// The decimal text of the CBOR negative integer `-1 - n`, exact for every `n`.
    private static func negativeText(_ n: UInt64) -> String {
        n == .max ? "-18446744073709551616" : "-\(n + 1)"
    }
}
