import Testing

@testable import LatchkeyServer

@Suite("Token bucket limiter")
struct TokenBucketLimiterTests {
    @Test("Retry-After is the wait in whole seconds, rounded up, and at least one")
    func retryAfterRoundsUp() {
        #expect(Duration.zero.retryAfterSeconds == 1)
        #expect(Duration.seconds(-3).retryAfterSeconds == 1)
        #expect(Duration.milliseconds(1).retryAfterSeconds == 1)
        #expect(Duration.seconds(2).retryAfterSeconds == 2)
        #expect(Duration.milliseconds(2500).retryAfterSeconds == 3)
        #expect(Duration.seconds(59.2).retryAfterSeconds == 60, "as the password throttle converts its wait")
    }

    @Test("a client gets its burst, then waits for the refill")
    func burstThenWait() throws {
        let limiter = TokenBucketLimiter(perMinute: 3)
        let now = ContinuousClock.now
        for _ in 0..<3 { #expect(limiter.acquire("a", now: now) == nil) }
        let wait = try #require(limiter.acquire("a", now: now))
        #expect(wait > .seconds(19) && wait <= .seconds(20))
        #expect(limiter.acquire("a", now: now + .seconds(20)) == nil)
        #expect(limiter.acquire("b", now: now) == nil, "buckets are per client")
    }

    @Test("a flood of fresh addresses does not reset a limited client's bucket: the least recently used go first")
    func floodDoesNotResetTheLimited() {
        let limiter = TokenBucketLimiter(perMinute: 3, maximumClients: 8)
        let now = ContinuousClock.now
        for _ in 0..<3 { #expect(limiter.acquire("heavy", now: now) == nil) }
        for index in 0..<100 {
            let moment = now + .milliseconds(index)
            _ = limiter.acquire("fresh-\(index)", now: moment)
            if index % 2 == 0 {
                #expect(limiter.acquire("heavy", now: moment) != nil, "still limited after \(index) fresh addresses")
            }
        }
        #expect(limiter.trackedClients <= 8)
    }

    @Test("a flood of fresh addresses keeps the table bounded: idle buckets go first, then the least recently used")
    func floodIsBounded() {
        let limiter = TokenBucketLimiter(perMinute: 60, maximumClients: 8)
        let now = ContinuousClock.now
        for index in 0..<100 {
            _ = limiter.acquire("client-\(index)", now: now)
            #expect(limiter.trackedClients <= 8)
        }
        let later = now + .seconds(61)
        _ = limiter.acquire("old", now: now)
        for index in 0..<8 { _ = limiter.acquire("late-\(index)", now: later) }
        #expect(limiter.trackedClients <= 8)
    }
}
