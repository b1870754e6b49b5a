/// Base64url without padding, as WebAuthn's JSON forms use. Decoding is lenient: it also accepts
/// padding and the standard alphabet (`+`, `/`), since some clients send those.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Encodes bytes as unpadded base64url.
    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 {
                out.append(alphabet[Int((b1 & 0x0f) << 2 | (b2 ?? 0) >> 6)])
                if let b2 { out.append(alphabet[Int(b2 & 0x3f)]) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url or base64, padded or not. Returns nil for anything else.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        var utf8 = Array(string.utf8)
        while utf8.last == UInt8(ascii: "=") { utf8.removeLast() }
        if utf8.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for char in utf8 {
            let value = decodeTable[Int(char)]
            if value == 0xff { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero in a canonical encoding; tolerate them as most decoders do.
        return out
    }
}

/// Bytes that travel as a base64url string in JSON.
public struct Base64URLBytes: Codable, Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let bytes = Base64URL.decode(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not base64url: \(string.prefix(40))")
        }
        self.bytes = bytes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Base64URL.encode(bytes))
    }

    public var base64URL: String { Base64URL.encode(bytes) }
    public var description: String { base64URL }
}
