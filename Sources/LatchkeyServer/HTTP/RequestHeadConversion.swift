import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1

extension HTTPRequest {
    /// The request SwiftNIO's decoded `head` describes, exactly as NIOHTTPTypesHTTP1's
    /// `HTTPRequest(head, secure: false, splitCookie: false)` makes it, with less work for the target every client
    /// sends, the origin form (`/path?query`).
    ///
    /// For that form the library's conversion parses the target with `URLComponents` only to learn that it has no
    /// scheme, and appends each field through `RangeReplaceableCollection.insert`; both were about 1 % of a login's
    /// server CPU (docs/PERFORMANCE.md, eighteenth round). Here the target is the path as it came, the first `Host`
    /// field is the authority and is left out of the fields (as the library does), fields whose names are not HTTP
    /// tokens are dropped (as the library does), and the rest are added in one call. Any other form of target
    /// (absolute, asterisk, authority) goes to the library's conversion.
    ///
    /// Throws NIOHTTPTypesHTTP1's error for a method that is not an HTTP token.
    init(plainHTTP head: HTTPRequestHead) throws {
        guard head.uri.utf8.first == UInt8(ascii: "/") else {
            try self.init(head, secure: false, splitCookie: false)
            return
        }
        var authority: String?
        var hostSeen = false
        var fields: [HTTPField] = []
        fields.reserveCapacity(head.headers.count)
        for field in head.headers {
            if !hostSeen && Self.isHost(field.name) {
                hostSeen = true
                authority = field.value
            } else if let name = HTTPField.Name(field.name) {
                fields.append(HTTPField(name: name, value: field.value))
            }
        }
        var headerFields = HTTPFields()
        headerFields.reserveCapacity(fields.count)  // its append grows one field at a time
        headerFields.replaceSubrange(headerFields.endIndex..<headerFields.endIndex, with: fields)
        self.init(
            method: try Method(head.method), scheme: "http", authority: authority, path: head.uri,
            headerFields: headerFields
        )
    }

    /// Whether a field name is `Host`, in any case, without making a lowercased copy.
    private static func isHost(_ name: String) -> Bool {
        var utf8 = name.utf8.makeIterator()
        for expected in "host".utf8 {
            guard let byte = utf8.next(), byte | 0x20 == expected else { return false }
        }
        return utf8.next() == nil
    }
}
