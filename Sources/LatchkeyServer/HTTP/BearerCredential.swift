import Hummingbird

extension Request {
    /// The credential of `Authorization: Bearer <credential>` (the scheme in any case), or nil.
    var bearerCredential: Substring? {
        headers[.authorization].flatMap { header -> Substring? in
            let parts = header.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "bearer" ? parts[1] : nil
        }
    }
}
