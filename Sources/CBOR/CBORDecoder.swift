import ByteEncoding

/// A strict RFC 8949 decoder for the subset WebAuthn uses.
///
/// It rejects, with a ``CBORError``: truncated input, lengths past the end, nesting deeper than
/// ``maximumDepth``, duplicate map keys, simple values other than false/true/null, tags (unless
/// ``allowTags``), indefinite lengths, reserved additional information, invalid UTF-8, and trailing
/// bytes where one item is expected. It never allocates by a length before checking that the input
/// holds that many bytes.
public struct CBORDecoder: Sendable {
    public var maximumDepth: Int
    public var allowTags: Bool

    public init(maximumDepth: Int = 16, allowTags: Bool = false) {
        self.maximumDepth = maximumDepth
        self.allowTags = allowTags
    }

    /// Decodes exactly one item; trailing bytes are an error.
    public func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(CBORError) -> CBORValue {
        let array = bytes as? [UInt8] ?? Array(bytes)
        let (value, consumed) = try decodePrefix(array)
        if consumed != array.count { throw .trailingBytes(offset: consumed, count: array.count - consumed) }
        return value
    }

    /// Decodes one item from the start of `bytes` and says how many bytes it took.
    public func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (value: CBORValue, consumed: Int) {
        guard !bytes.isEmpty else { throw .empty }
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth, allowTags: allowTags)
        let value = try reader.readItem(depth: 0)
        return (value, reader.offset)
    }

    /// Decodes exactly one item with the default limits.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(CBORError) -> CBORValue {
        try CBORDecoder().decode(bytes)
    }
}

private struct Reader {
    let bytes: [UInt8]
    let maximumDepth: Int
    let allowTags: Bool
    var offset = 0

    init(bytes: [UInt8], maximumDepth: Int, allowTags: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.allowTags = allowTags
    }

    var remaining: Int { bytes.count - offset }

    mutating func readByte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt(byteCount: Int) throws(CBORError) -> UInt64 {
        guard remaining >= byteCount else { throw .truncated(offset: offset) }
        var value: UInt64 = 0
        for i in 0..<byteCount { value = value << 8 | UInt64(bytes[offset + i]) }
        offset += byteCount
        return value
    }

    /// Reads the argument that follows the initial byte.
    mutating func readArgument(_ info: UInt8, itemOffset: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try readUInt(byteCount: 1)
        case 25: return try readUInt(byteCount: 2)
        case 26: return try readUInt(byteCount: 4)
        case 27: return try readUInt(byteCount: 8)
        case 31: throw .indefiniteLength(offset: itemOffset)
        default: throw .reservedAdditionalInfo(offset: itemOffset)
        }
    }

    /// Checks that `claimed` items of at least `minimumSize` bytes each can still fit.
    func checkFits(_ claimed: UInt64, minimumSize: UInt64, itemOffset: Int) throws(CBORError) {
        let (total, overflow) = claimed.multipliedReportingOverflow(by: minimumSize)
        if overflow || total > UInt64(remaining) {
            throw .lengthExceedsInput(offset: itemOffset, claimed: claimed)
        }
    }

    mutating func readBytes(_ count: UInt64, itemOffset: Int) throws(CBORError) -> ArraySlice<UInt8> {
        try checkFits(count, minimumSize: 1, itemOffset: itemOffset)
        let start = offset
        offset += Int(count)
        return bytes[start..<offset]
    }

    mutating func readItem(depth: Int) throws(CBORError) -> CBORValue {
        let itemOffset = offset
        let initial = try readByte()
        let major = initial >> 5
        let info = initial & 0x1f
        switch major {
        case 0:
            return .unsignedInt(try readArgument(info, itemOffset: itemOffset))
        case 1:
            return .negativeInt(try readArgument(info, itemOffset: itemOffset))
        case 2:
            let length = try readArgument(info, itemOffset: itemOffset)
            return .byteString(Array(try readBytes(length, itemOffset: itemOffset)))
        case 3:
            let length = try readArgument(info, itemOffset: itemOffset)
            let raw = try readBytes(length, itemOffset: itemOffset)
            guard let text = StrictUTF8.decode(raw) else { throw .invalidUTF8(offset: itemOffset) }
            return .textString(text)
        case 4:
            let count = try readArgument(info, itemOffset: itemOffset)
            guard depth < maximumDepth else { throw .nestingTooDeep(limit: maximumDepth) }
            try checkFits(count, minimumSize: 1, itemOffset: itemOffset)
            var items: [CBORValue] = []
            items.reserveCapacity(Int(count))
            for _ in 0..<count { items.append(try readItem(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try readArgument(info, itemOffset: itemOffset)
            guard depth < maximumDepth else { throw .nestingTooDeep(limit: maximumDepth) }
            try checkFits(count, minimumSize: 2, itemOffset: itemOffset)
            var map = CBORMap()
            // Small maps (every WebAuthn structure) check duplicates by scanning; large ones by hashing.
            var seen = count > 16 ? Set<CBORValue>() : nil
            for _ in 0..<count {
                let keyOffset = offset
                let key = try readItem(depth: depth + 1)
                let value = try readItem(depth: depth + 1)
                let isNew = seen?.insert(key).inserted ?? !map.containsKey(key)
                guard isNew else { throw .duplicateMapKey(offset: keyOffset) }
                map.appendDecoded(key, value)
            }
            return .map(map)
        case 6:
            let tag = try readArgument(info, itemOffset: itemOffset)
            guard allowTags else { throw .unsupportedTag(offset: itemOffset, tag: tag) }
            guard depth < maximumDepth else { throw .nestingTooDeep(limit: maximumDepth) }
            return .tagged(tag: tag, value: try readItem(depth: depth + 1))
        default:
            return try readSimple(info, itemOffset: itemOffset)
        }
    }

    mutating func readSimple(_ info: UInt8, itemOffset: Int) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 24:
            let value = try readByte()
            throw .unsupportedSimpleValue(offset: itemOffset, value: value)
        case 25:
            return .float(Double(Float16Bits.decode(UInt16(try readUInt(byteCount: 2)))))
        case 26:
            return .float(Double(Float(bitPattern: UInt32(try readUInt(byteCount: 4)))))
        case 27:
            return .float(Double(bitPattern: try readUInt(byteCount: 8)))
        case 31:
            throw .indefiniteLength(offset: itemOffset)
        case 28...30:
            throw .reservedAdditionalInfo(offset: itemOffset)
        default:
            throw .unsupportedSimpleValue(offset: itemOffset, value: info)
        }
    }
}

/// IEEE 754 half precision, decoded by hand (Float16 is not available on every platform).
enum Float16Bits {
    static func decode(_ bits: UInt16) -> Float {
        let sign: Float = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int((bits >> 10) & 0x1f)
        let fraction = Float(bits & 0x3ff)
        switch exponent {
        case 0: return sign * fraction * Float(sign: .plus, exponent: -24, significand: 1)
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Float(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }
}
