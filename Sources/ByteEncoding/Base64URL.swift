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
    @inlinable
    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        // Specialised at the caller for arrays, slices and `Data`, which are contiguous: one pass over raw memory.
        if let text = bytes.withContiguousStorageIfAvailable({ encode(contiguous: UnsafeRawBufferPointer($0)) }) {
            return text
        }
        return Array(bytes).withUnsafeBytes { encode(contiguous: $0) }
    }

    /// Encodes contiguous bytes, writing the string's storage directly.
    @usableFromInline
    static func encode(contiguous bytes: UnsafeRawBufferPointer) -> String {
        let whole = bytes.count / 3
        let rest = bytes.count % 3
        let length = whole * 4 + (rest == 0 ? 0 : rest + 1)
        return alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: length) { out in
                var read = 0
                var written = 0
                for _ in 0..<whole {
                    let b0 = bytes[read]
                    let b1 = bytes[read + 1]
                    let b2 = bytes[read + 2]
                    out[written] = alphabet[Int(b0 >> 2)]
                    out[written + 1] = alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)]
                    out[written + 2] = alphabet[Int((b1 & 0x0f) << 2 | b2 >> 6)]
                    out[written + 3] = alphabet[Int(b2 & 0x3f)]
                    read += 3
                    written += 4
                }
                if rest > 0 {
                    let b0 = bytes[read]
                    let b1: UInt8 = rest == 2 ? bytes[read + 1] : 0
                    out[written] = alphabet[Int(b0 >> 2)]
                    out[written + 1] = alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)]
                    if rest == 2 { out[written + 2] = alphabet[Int((b1 & 0x0f) << 2)] }
                }
                return length
            }
        }
    }

    /// Decodes base64url or base64, padded or not. Returns nil for anything else.
    public static func decode(_ string: some StringProtocol) -> [UInt8]? {
        var string = String(string)
        return string.withUTF8 { decode(utf8: $0) }
    }

    /// Whether `text` (base64url or base64, padded or not) decodes to exactly `bytes`, without allocating.
    public static func text(_ text: String, encodes bytes: [UInt8]) -> Bool {
        var accumulator: UInt32 = 0
        var bits = 0
        var position = 0
        var padding = false
        for char in text.utf8 {
            if char == UInt8(ascii: "=") {
                padding = true
                continue
            }
            let value = decodeTable[Int(char)]
            guard value != 0xff, !padding else { return false }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                guard position < bytes.count, bytes[position] == UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                else {
                    return false
                }
                position += 1
            }
        }
        return position == bytes.count && bits < 6
    }

    /// Decodes the UTF-8 bytes of base64url or base64 text, padded or not.
    public static func decode(utf8 text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        if end % 4 == 1 { return nil }
        return decodeTable.withUnsafeBufferPointer { table -> [UInt8]? in
            var failed = false
            let out = [UInt8](unsafeUninitializedCapacity: end * 3 / 4) { buffer, initialized in
                var accumulator: UInt32 = 0
                var bits = 0
                var count = 0
                for position in 0..<end {
                    let value = table[Int(text[position])]
                    if value == 0xff {
                        failed = true
                        break
                    }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        buffer[count] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                        count += 1
                    }
                }
                // Leftover bits must be zero in a canonical encoding; tolerate them as most decoders do.
                initialized = count
            }
            return failed ? nil : out
        }
    }
}

/// Bytes that travel as a base64url string in JSON.
public struct Base64URLBytes: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The bytes.
    public var bytes: [UInt8]

    /// Wraps bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Decodes the value from JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let bytes = Base64URL.decode(string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not base64url: \(string.prefix(40))")
        }
        self.bytes = bytes
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Base64URL.encode(bytes))
    }

    /// The bytes as unpadded base64url.
    public var base64URL: String { Base64URL.encode(bytes) }
    /// A readable form.
    public var description: String { base64URL }
}
