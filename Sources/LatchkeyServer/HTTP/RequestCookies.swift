import Hummingbird

extension Request {
    /// The value of the first cookie named `name` the request carries, or nil.
    func cookie(named name: String) -> Substring? {
        var found: Substring?
        forEachCookie(named: name) { value in
            found = value
            return false
        }
        return found
    }

    /// The values of every cookie named `name` the request carries, in order. Browsers send every cookie that matches
    /// the request, so more than one means a cookie planted beside the real one (for a domain or path above it).
    func cookieValues(named name: String) -> [Substring] {
        var values: [Substring] = []
        forEachCookie(named: name) { value in
            values.append(value)
            return true
        }
        return values
    }

    /// Calls `body` with the value of each cookie named `name`, in the order of the `Cookie` fields and of the pairs
    /// in each, until it returns false.
    ///
    /// A field is `name=value` pairs separated by `;` (RFC 6265 §4.2.1). Spaces and tabs before a name are skipped; a
    /// value is everything after its pair's first `=`, as Hummingbird's `Cookies` reads it; a pair without `=` or
    /// without a name is no cookie. An empty value is a cookie with an empty value (Hummingbird's `Cookies` finds no
    /// cookie there; every caller here treats the two alike).
    ///
    /// The field is read as UTF-8 bytes. `Cookies` walks it a `Character` at a time, which on the conformance profile,
    /// whose ceremony ticket travels in a cookie, was 2.9 % of the server's CPU (docs/PERFORMANCE.md).
    private func forEachCookie(named name: String, _ body: (Substring) -> Bool) {
        for field in headers[values: .cookie] {
            let bytes = field.utf8
            var pairStart = bytes.startIndex
            while pairStart < bytes.endIndex {
                let pairEnd = bytes[pairStart...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
                var nameStart = pairStart
                while nameStart < pairEnd,
                    bytes[nameStart] == UInt8(ascii: " ") || bytes[nameStart] == UInt8(ascii: "\t")
                {
                    bytes.formIndex(after: &nameStart)
                }
                if let equals = bytes[nameStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")), equals > nameStart,
                    bytes[nameStart..<equals].elementsEqual(name.utf8)
                {
                    // `;`, `=` and the skipped spaces are ASCII, so these indices fall on characters of `field`.
                    guard body(field[bytes.index(after: equals)..<pairEnd]) else { return }
                }
                pairStart = pairEnd < bytes.endIndex ? bytes.index(after: pairEnd) : pairEnd
            }
        }
    }
}
