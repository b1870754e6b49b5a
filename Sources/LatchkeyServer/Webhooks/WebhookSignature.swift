import Crypto
import Foundation

/// The Standard Webhooks signature of a delivery: `v1,` and base64 of HMAC-SHA256 over `id.timestamp.body`, keyed by
/// the endpoint's secret. A receiver checks it with the same secret (and refuses old timestamps).
enum WebhookSignature {
    static func sign(id: String, timestamp: Int, body: [UInt8], secret: [UInt8]) -> String {
        var message = Array("\(id).\(timestamp).".utf8)
        message += body
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret))
        return "v1," + Data(mac).base64EncodedString()
    }
}
