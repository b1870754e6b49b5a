/// Lowercase hexadecimal text of bytes, as `inspect` and error messages show digests.
public enum Hex {
    /// Encodes bytes as lowercase hex, two digits a byte.
    ///
    /// Inlinable, so that a caller's byte type is specialized: unspecialized, a sign-in's spent-ticket ID (six bytes)
    /// cost about 0.5 % of the server's CPU per login.
    @inlinable
    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digit(byte >> 4))
            out.append(digit(byte & 0x0f))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The lowercase digit of a value 0–15.
    @usableFromInline
    static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Decodes hex digits of either case, two a byte. Nil for an odd count or any other character.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// The value of one hex digit of either case; nil for any other byte.
    public static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
