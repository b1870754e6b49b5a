import Foundation

/// The cookies one client holds for its server: what `Set-Cookie` gave, sent back in `Cookie`.
///
/// The conformance profile keeps the ceremony in a cookie and both profiles set a session cookie; a client
/// talks to one server, so the jar keeps names and values only (no domain or path matching). A cookie set
/// with `Max-Age=0` or an empty value is removed.
actor CookieJar {
    private var cookies: [(name: String, value: String)] = []

    /// Takes in the `Set-Cookie` fields of a response.
    func store(_ setCookies: [String]) {
        for field in setCookies {
            let attributes = field.split(separator: ";").map(Self.trimmed)
            guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            cookies.removeAll { $0.name == name }
            let expired = attributes.dropFirst().contains { attribute in
                attribute.prefix(8).lowercased() == "max-age=" && (Int(attribute.dropFirst(8)) ?? 1) <= 0
            }
            if !value.isEmpty, !expired { cookies.append((name, value)) }
        }
    }

    /// `text` without the spaces and tabs around it (RFC 6265's white space), without Foundation's `CharacterSet`
    /// round trip, which was a visible part of a load-test client's work.
    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// The `Cookie` header value, or nil when the jar is empty.
    var header: String? {
        cookies.isEmpty ? nil : cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }
}
