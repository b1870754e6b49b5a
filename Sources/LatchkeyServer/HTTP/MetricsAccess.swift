import Crypto
import Foundation
import Hummingbird
import WebAuthn

/// Who may read `/metrics`: a scraper with `Authorization: Bearer <token>`, the token compared in constant time.
/// Without a configured token the endpoint is off, so a server never shows its traffic to anyone by default.
struct MetricsAccess: Sendable {
    /// The configured token, or nil when `/metrics` is off.
    let token: String?

    /// Throws 404 `metrics.disabled` without a token, 401 `metrics.unauthorized` unless `request` carries it.
    func check(_ request: Request) throws {
        guard let token else {
            throw APIError(.metricsDisabled, "/metrics is off: start the server with --metrics-token-file")
        }
        let presented = request.bearerCredential
        // Compare digests, so neither the length nor the content of the token shows in the timing.
        let expected = SHA256.hash(data: Data(token.utf8))
        let given = SHA256.hash(data: Data((presented ?? "").utf8))
        guard presented != nil, constantTimeEquals(Array(expected), Array(given)) else {
            throw APIError(
                .metricsUnauthorized, "send Authorization: Bearer <the metrics token>",
                headers: [.wwwAuthenticate: "Bearer"])
        }
    }
}
