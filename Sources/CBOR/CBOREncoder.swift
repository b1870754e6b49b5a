/// A canonical CBOR encoder (CTAP2 canonical form, RFC 8949 §4.2.1 "core deterministic" ordering by
/// encoded key length, then bytes): shortest integer and length forms, definite lengths, sorted map keys.
public enum CBOREncoder {
    public static func encode(_ value: CBORValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    public static func append(_ value: CBORValue, to out: inout [UInt8]) {
        switch value {
        case .unsignedInt(let n): appendHead(major: 0, argument: n, to: &out)
        case .negativeInt(let n): appendHead(major: 1, argument: n, to: &out)
        case .byteString(let bytes):
            appendHead(major: 2, argument: UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        case .textString(let text):
            let utf8 = Array(text.utf8)
            appendHead(major: 3, argument: UInt64(utf8.count), to: &out)
            out.append(contentsOf: utf8)
        case .array(let items):
            appendHead(major: 4, argument: UInt64(items.count), to: &out)
            for item in items { append(item, to: &out) }
        case .map(let map):
            appendHead(major: 5, argument: UInt64(map.count), to: &out)
            let encoded = map.entries
                .map { (key: encode($0.key), value: encode($0.value)) }
                .sorted { lhs, rhs in
                    lhs.key.count != rhs.key.count
                        ? lhs.key.count < rhs.key.count : lhs.key.lexicographicallyPrecedes(rhs.key)
                }
            for entry in encoded {
                out.append(contentsOf: entry.key)
                out.append(contentsOf: entry.value)
            }
        case .tagged(let tag, let inner):
            appendHead(major: 6, argument: tag, to: &out)
            append(inner, to: &out)
        case .bool(let flag): out.append(flag ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .float(let double):
            out.append(0xfb)
            appendBigEndian(double.bitPattern, byteCount: 8, to: &out)
        }
    }

    static func appendHead(major: UInt8, argument: UInt64, to out: inout [UInt8]) {
        let prefix = major << 5
        switch argument {
        case 0..<24: out.append(prefix | UInt8(argument))
        case 24...0xff:
            out.append(prefix | 24)
            out.append(UInt8(argument))
        case 0x100...0xffff:
            out.append(prefix | 25)
            appendBigEndian(argument, byteCount: 2, to: &out)
        case 0x10000...0xffff_ffff:
            out.append(prefix | 26)
            appendBigEndian(argument, byteCount: 4, to: &out)
        default:
            out.append(prefix | 27)
            appendBigEndian(argument, byteCount: 8, to: &out)
        }
    }

    static func appendBigEndian(_ value: UInt64, byteCount: Int, to out: inout [UInt8]) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}

extension CBORValue {
    /// The canonical encoding of this value.
    public var encoded: [UInt8] { CBOREncoder.encode(self) }
}
