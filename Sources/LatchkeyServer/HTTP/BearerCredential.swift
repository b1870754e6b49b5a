import Hummingbird

extension Request {
    /// The credential of `Authorization: Bearer <credential>` (the scheme in any case), or nil.
    var bearerCredential: Substring? {
        headers[.authorization].flatMap(Self.bearerCredential(in:))
    }

    /// The credential of an `Authorization` field's value `Bearer <credential>` (the scheme in any case), or nil.
    static func bearerCredential(in header: String) -> Substring? {
        let parts = header.split(separator: " ", maxSplits: 1)
        return parts.count == 2 && parts[0].lowercased() == "bearer" ? parts[1] : nil
    }
}
