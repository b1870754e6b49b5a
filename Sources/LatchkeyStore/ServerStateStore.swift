import Foundation

/// State the server instances sharing a database agree on: named secrets made once (the key of decoy sign-in
/// options), and request counters per fixed window (rate limits per account name).
public protocol ServerStateStore: Sendable {
    /// The secret stored under `name`. The first call stores `candidate` and returns it; every later call (from any
    /// instance) returns that first value, so concurrent first calls agree.
    func serverSecret(named name: String, candidate: Data) async throws(StoreError) -> Data

    /// Counts one request against `key` in the fixed window of length `window` that began at the key's first request:
    /// returns the count including this one. A window that has ended starts again at `now` with a count of 1. One
    /// atomic statement, so concurrent instances never lose a count.
    func countRequest(key: String, window: TimeInterval, now: Date) async throws(StoreError) -> Int

    /// Deletes the counters whose window began before `cutoff`; returns how many.
    @discardableResult
    func purgeRequestCounts(before cutoff: Date) async throws(StoreError) -> Int
}
