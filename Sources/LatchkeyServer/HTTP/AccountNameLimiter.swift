import Foundation
import LatchkeyStore

/// Limits sign-in attempts per account name, whoever makes them: `perMinute` per name in fixed one-minute
/// windows counted in the store, so every instance sharing the database counts the same attempts (unlike the
/// per-address buckets, which each instance keeps). Known and unknown names count alike, so the limit says nothing
/// about which names exist. Over the limit: 429 `request.rateLimited` with `Retry-After`.
///
/// The counters are keyed by the SHA-256 of the name key (what ``PasswordService`` keys its throttle by), so the
/// names people typed are not kept in clear.
struct AccountNameLimiter: Sendable {
    let store: any ServerStateStore
    let perMinute: Int
    static let window: TimeInterval = 60

    /// Counts an attempt for `name`; throws 429 once the name has had `perMinute` in the current window.
    func acquire(_ name: String, now: Date = Date()) async throws {
        let count = try await store.countRequest(
            key: "signin:" + PasswordService.throttleKey(name), window: Self.window, now: now)
        guard count <= perMinute else {
            let seconds = Int(Self.window)
            throw APIError(
                .tooManyRequests, code: "request.rateLimited",
                message: "too many sign-in attempts for this account name; retry within \(seconds) s",
                headers: [.retryAfter: String(seconds)]
            )
        }
    }
}
