/// The top-level members of a JSON object, each kept as its raw JSON text, read in one strict pass (the
/// `JSONReader` the credential parsers use) without building a tree.
///
/// For request bodies that carry a credential among other members, such as a server's
/// `{"ticket":"…","credential":{…}}`: read the small members here and hand the credential's text to
/// `RegistrationCredential.parse(_:)` or `AuthenticationCredential.parse(_:)`, so the credential is parsed once,
/// by the fast path, with WebAuthn's own error codes.
package struct JSONMembers: Sendable {
    /// The body is not one JSON object.
    package struct Malformed: Error, Sendable, CustomStringConvertible {
        /// A readable form.
        package let description: String
    }

    private let bytes: [UInt8]
    private let ranges: [String: Range<Int>]

    /// Reads `bytes`, which must be exactly one JSON object. A repeated member keeps its first value, as Foundation's
    /// `JSONDecoder` reads it, so a body read here and one read by `JSONDecoder` agree.
    package init(_ bytes: [UInt8]) throws(Malformed) {
        var ranges: [String: Range<Int>] = [:]
        var reader = JSONReader(bytes)
        do {
            try reader.readObject { reader, key throws(JSONReader.Failure) in
                let range = try reader.skipRawValue()
                if ranges[key] == nil { ranges[key] = range }
            }
            try reader.finish()
        } catch {
            throw Malformed(description: error.description)
        }
        self.bytes = bytes
        self.ranges = ranges
    }

    /// The raw JSON text of member `name`, or nil when there is none.
    package subscript(name: String) -> ArraySlice<UInt8>? {
        ranges[name].map { bytes[$0] }
    }

    /// Member `name` when it is a JSON string; nil when it is missing or of another type.
    package func string(_ name: String) -> String? {
        guard let range = ranges[name], bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        var reader = JSONReader(Array(bytes[range]))
        return try? reader.readString()
    }

    /// Member `name` as an optional string: `.some(nil)` when it is missing or `null`, `.some(text)` when it is a JSON
    /// string, and nil when it is of another type.
    package func optionalString(_ name: String) -> String?? {
        guard let range = ranges[name], bytes[range.lowerBound] != UInt8(ascii: "n") else { return .some(nil) }
        return string(name).map { .some($0) }
    }

    /// Member `name` when it is a JSON array of strings; nil when it is missing or anything else.
    package func strings(_ name: String) -> [String]? {
        guard let range = ranges[name], bytes[range.lowerBound] == UInt8(ascii: "[") else { return nil }
        var reader = JSONReader(Array(bytes[range]))
        var strings: [String] = []
        do {
            try reader.readArray { reader throws(JSONReader.Failure) in strings.append(try reader.readString()) }
        } catch {
            return nil
        }
        return strings
    }
}
