import ByteEncoding

/// A small, strict, allocation-light JSON reader for the hot path: it walks one JSON text and hands the caller the
/// fields it asks for, skipping (but still validating) everything else. It builds no intermediate tree.
///
/// Used for client data and credential JSON, which every ceremony parses; `Codable` remains available on the model types.
/// `latchkey loadtest` reads the server's answers with it too (`WireSignIn`).
package struct JSONReader {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// Set when a member was well-formed JSON but not the base64url it must be.
        var isBase64Failure = false

        package init(description: String, isBase64Failure: Bool = false) {
            self.description = description
            self.isBase64Failure = isBase64Failure
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    static let maximumDepth = 32

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: - Structure

    /// Reads one object, calling `field` with each key; `field` must consume the value (read or skip it).
    package mutating func readObject(_ field: (inout JSONReader, String) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"))
        depth += 1
        guard depth <= Self.maximumDepth else { throw Failure(description: "JSON nests too deeply") }
        defer { depth -= 1 }
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            try field(&self, key)
            skipWhitespace()
            guard let next = next() else { throw Failure(description: "JSON ends inside an object") }
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw unexpected(next) }
        }
    }

    /// Reads one array, calling `element` for each element; `element` must consume it.
    package mutating func readArray(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "["))
        depth += 1
        guard depth <= Self.maximumDepth else { throw Failure(description: "JSON nests too deeply") }
        defer { depth -= 1 }
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard let next = next() else { throw Failure(description: "JSON ends inside an array") }
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw unexpected(next) }
        }
    }

    /// Requires that only whitespace remains.
    package mutating func finish() throws(Failure) {
        skipWhitespace()
        guard index == bytes.count else { throw Failure(description: "unexpected text after the JSON value") }
    }

    // MARK: - Values

    /// True when the next value is `null` (and consumes it).
    mutating func readNullIfPresent() -> Bool {
        skipWhitespace()
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    mutating func readBool() throws(Failure) -> Bool {
        skipWhitespace()
        if consumeLiteral("true") { return true }
        if consumeLiteral("false") { return false }
        throw Failure(description: "expected true or false")
    }

    /// Reads a string, decoding escapes; the fast path (no escapes) copies the bytes once, and an ASCII string (every
    /// base64url field of a credential) skips UTF-8 validation, which ASCII cannot fail.
    package mutating func readString() throws(Failure) -> String {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = index
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text: String
                if highBits < 0x80 {
                    text = String(decoding: bytes[start..<index], as: UTF8.self)
                } else if let validated = StrictUTF8.decode(bytes[start..<index]) {
                    text = validated
                } else {
                    throw Failure(description: "JSON string is not valid UTF-8")
                }
                index += 1
                return text
            }
            highBits |= byte
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if byte < 0x20 { throw Failure(description: "control character in a JSON string") }
            index += 1
        }
        throw Failure(description: "JSON ends inside a string")
    }

    /// Reads any value as a ``JSONValue`` (for extension inputs and outputs, which pass through).
    mutating func readValue() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw Failure(description: "JSON ends where a value is expected") }
        switch byte {
        case UInt8(ascii: "{"):
            var object: [String: JSONValue] = [:]
            try readObject { reader, key throws(Failure) in object[key] = try reader.readValue() }
            return .object(object)
        case UInt8(ascii: "["):
            var array: [JSONValue] = []
            try readArray { reader throws(Failure) in array.append(try reader.readValue()) }
            return .array(array)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try readBool())
        case UInt8(ascii: "n"):
            guard readNullIfPresent() else { throw unexpected(byte) }
            return .null
        default:
            let start = index
            try skipNumber()
            return .number(Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0)
        }
    }

    /// Reads a string holding base64url (or base64) and decodes it straight from the JSON bytes.
    /// Returns nil when the text is not base64.
    package mutating func readBase64() throws(Failure) -> [UInt8]? {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            // Base64 needs no escapes; anything unusual takes the general path.
            if bytes[index] == UInt8(ascii: "\\") || bytes[index] < 0x20 {
                index = start - 1
                return Base64URL.decode(try readString())
            }
            index += 1
        }
        guard index < bytes.count else { throw Failure(description: "JSON ends inside a string") }
        let end = index
        index += 1
        return bytes.withUnsafeBufferPointer { buffer in
            Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: buffer[start..<end]))
        }
    }

    /// Skips any value, validating its syntax, and returns where its text lies in the input.
    mutating func skipRawValue() throws(Failure) -> Range<Int> {
        skipWhitespace()
        let start = index
        try skipValue()
        return start..<index
    }

    /// Skips any value, validating its syntax.
    package mutating func skipValue() throws(Failure) {
        skipWhitespace()
        guard let byte = peek() else { throw Failure(description: "JSON ends where a value is expected") }
        switch byte {
        case UInt8(ascii: "{"): try readObject { reader, _ throws(Failure) in try reader.skipValue() }
        case UInt8(ascii: "["): try readArray { reader throws(Failure) in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"):
            guard readNullIfPresent() else { throw unexpected(byte) }
        default: try skipNumber()
        }
    }

    // MARK: - Internals

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0a, 0x0d: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        skipWhitespace()
        guard let found = next() else {
            throw Failure(description: "JSON ends where \"\(Character(Unicode.Scalar(byte)))\" is expected")
        }
        guard found == byte else { throw unexpected(found) }
    }

    private func unexpected(_ byte: UInt8) -> Failure {
        Failure(description: "unexpected character \"\(Character(Unicode.Scalar(byte)))\" at byte \(index - 1)")
    }

    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = literal.withUTF8Buffer { buffer in
            (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] }
        }
        if matches { index += count }
        return matches
    }

    private mutating func skipNumber() throws(Failure) {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while let byte = peek(),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        {
            index += 1
            digits += 1
        }
        guard digits > 0, Double(String(decoding: bytes[start..<index], as: UTF8.self)) != nil else {
            throw Failure(description: "invalid JSON value at byte \(start)")
        }
    }

    private mutating func readEscapedString(from start: Int) throws(Failure) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingUTF8 = Array(bytes[start..<index])
        // Each run of raw bytes between escapes must be whole UTF-8 (an escape cannot split a sequence), as in
        // the fast path of ``readString()``.
        func flush() throws(Failure) {
            guard !pendingUTF8.isEmpty else { return }
            guard let text = StrictUTF8.decode(pendingUTF8) else {
                throw Failure(description: "JSON string is not valid UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
            pendingUTF8.removeAll(keepingCapacity: true)
        }
        while let byte = next() {
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                guard let escape = next() else { break }
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try readHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u") else {
                            throw Failure(description: "unpaired surrogate in a JSON string")
                        }
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw Failure(description: "invalid surrogate pair in a JSON string")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else {
                        throw Failure(description: "invalid \\u escape in a JSON string")
                    }
                    scalars.append(scalar)
                default:
                    throw Failure(description: "invalid escape in a JSON string")
                }
            default:
                guard byte >= 0x20 else { throw Failure(description: "control character in a JSON string") }
                pendingUTF8.append(byte)
            }
        }
        throw Failure(description: "JSON ends inside a string")
    }

    private mutating func readHex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next() else { throw Failure(description: "JSON ends inside a \\u escape") }
            guard let digit = Hex.nibble(byte) else {
                throw Failure(description: "invalid \\u escape in a JSON string")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
