import Foundation
import NIOConcurrencyHelpers

/// Token buckets keyed by client (an IPv4 address, an IPv6 /64): each holds up to `capacity` tokens and refills at
/// `capacity` per minute; a request takes one token or is refused with the time until the next token.
///
/// Memory and time are bounded: when the table grows past `maximumClients`, buckets that have refilled completely
/// (they carry no information) are dropped, and if that does not bring it under half the bound — a flood of fresh
/// addresses — the least recently used buckets are, down to half. A client being limited keeps asking, so its bucket
/// is among the most recent and survives the flood: fresh addresses cannot reset everyone's budget. Either way at
/// least `maximumClients / 2` requests pass before the next sweep, so the cost per request stays small (one sort per
/// sweep, amortized over those requests).
final class TokenBucketLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let capacity: Double
    private let refillPerSecond: Double
    private let maximumClients: Int
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])

    /// - Parameter perMinute: the burst size and the sustained rate per minute; must be positive.
    init(perMinute: Int, maximumClients: Int = 100_000) {
        capacity = Double(perMinute)
        refillPerSecond = Double(perMinute) / 60
        self.maximumClients = maximumClients
    }

    /// Takes a token for `client`; returns nil when allowed, or how long until a token is available.
    func acquire(_ client: String, now: ContinuousClock.Instant = .now) -> Duration? {
        buckets.withLockedValue { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = now - bucket.updated
            let seconds: Double = Double(elapsed.nanoseconds) / 1_000_000_000
            bucket.tokens = min(capacity, bucket.tokens + max(0, seconds) * refillPerSecond)
            bucket.updated = now
            defer {
                buckets[client] = bucket
                if buckets.count > maximumClients { prune(&buckets, now: now) }
            }
            guard bucket.tokens >= 1 else {
                return .seconds((1 - bucket.tokens) / refillPerSecond)
            }
            bucket.tokens -= 1
            return nil
        }
    }

    private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        let full = Duration.seconds(capacity / refillPerSecond)
        buckets = buckets.filter { now - $0.value.updated < full }
        let keep = maximumClients / 2
        guard buckets.count > keep else { return }
        let recent = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(keep)
        buckets = Dictionary(uniqueKeysWithValues: recent.map { ($0.key, $0.value) })
    }

    /// How many clients have a bucket (for tests).
    var trackedClients: Int { buckets.withLockedValue { $0.count } }
}
