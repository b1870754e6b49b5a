import Crypto
import Foundation
import Hummingbird
import WebAuthn

/// Who may call the admin API: a request with `Authorization: Bearer <secret>` of one of the configured keys. The
/// presented secret's SHA-256 is compared with every key's in constant time, with no early exit, so neither which key
/// nor how much of it matched shows in the timing.
struct AdminKeys: Sendable {
    let keys: [(name: String, digest: [UInt8])]

    /// The name of the key `request` carries; 401 `admin.unauthorized` otherwise.
    func authorize(_ request: Request) throws -> String {
        let presented = request.bearerCredential
        let digest = Array(SHA256.hash(data: Data((presented ?? "").utf8)))
        var matched: String?
        for key in keys where constantTimeEquals(key.digest, digest) && matched == nil {
            matched = key.name
        }
        guard presented != nil, let matched else {
            throw APIError(
                .adminUnauthorized, "send Authorization: Bearer <an admin key>", headers: [.wwwAuthenticate: "Bearer"])
        }
        return matched
    }
}
