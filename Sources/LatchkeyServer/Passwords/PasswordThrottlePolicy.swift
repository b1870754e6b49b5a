import Foundation
import LatchkeyStore

/// How guesses at a secret are throttled per key — passwords and recovery codes per account name, email codes per
/// account and per address, codes sent per address: the first ``freeFailures`` failures in a row cost nothing; from
/// then on each failure closes the door for ``baseDelay`` doubled per further failure, at most ``maximumDelay``. The
/// counts live in the store, so every instance sharing it applies the same throttle.
public struct PasswordThrottlePolicy: Sendable, Hashable {
    /// How many failures in a row cost nothing.
    public var freeFailures: Int
    /// The first delay after the free failures; it doubles with each further failure.
    public var baseDelay: Duration
    /// The longest delay.
    public var maximumDelay: Duration
    /// Failure records older than this are forgotten.
    public var memory: Duration

    /// A policy as given; the defaults are 5 free failures, 30 s doubling to at most an hour, records kept a day.
    public init(
        freeFailures: Int = 5, baseDelay: Duration = .seconds(30), maximumDelay: Duration = .seconds(3600),
        memory: Duration = .seconds(86_400)
    ) {
        self.freeFailures = freeFailures
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.memory = memory
    }

    /// The wait after the `failures`-th failure in a row.
    func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures >= freeFailures else { return 0 }
        let base = TimeInterval(baseDelay.components.seconds)
        let maximum = TimeInterval(maximumDelay.components.seconds)
        let doublings = Swift.min(failures - freeFailures, 30)
        return Swift.min(base * pow(2, TimeInterval(doublings)), maximum)
    }

    /// Takes one attempt from `key`'s budget in `store` before the secret (a password, a recovery code) is checked,
    /// counted as a failure until it turns out right (then the caller clears `key`'s failures); 429 `refusal` with
    /// `Retry-After` while `key` is throttled. Taken first, so that parallel guesses each take their own turn: a burst
    /// gets no more than a serial guesser's ``freeFailures``.
    func reserve(
        key: String, in store: any LatchkeyStore, now: Date, refusal: ServerErrorCode,
        reason: String = "too many wrong attempts for this account"
    ) async throws {
        guard try await store.reservePasswordAttempt(key: key, now: now, delay: { delay(afterFailures: $0) }) != nil
        else {
            let until = try await store.passwordThrottle(key: key)?.nextAllowedAt ?? now
            let seconds = Duration.seconds(until.timeIntervalSince(now)).retryAfterSeconds
            throw ServiceError(refusal, "\(reason); try again in \(seconds) s", retryAfter: seconds)
        }
    }
}
