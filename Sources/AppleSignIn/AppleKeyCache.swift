import AsyncHTTPClient
import CryptoExtras
import Foundation
import NIOCore

/// Somewhere Apple's key set comes from: Apple's keys endpoint in production, anything in tests.
public protocol AppleKeySource: Sendable {
    /// Fetches the current key set.
    func fetchKeys() async throws(AppleSignInError) -> AppleKeySet
}

/// Fetches the key set from `<baseURL>/auth/keys` with AsyncHTTPClient.
public struct AppleKeysEndpoint: AppleKeySource {
    private let http: AppleHTTP
    private let endpoints: AppleEndpoints

    /// Makes a source reading `endpoints.keys` through `httpClient`, giving up after `timeout`.
    public init(
        endpoints: AppleEndpoints = .production, httpClient: HTTPClient = .shared, timeout: TimeAmount = .seconds(10)
    ) {
        self.http = AppleHTTP(client: httpClient, timeout: timeout)
        self.endpoints = endpoints
    }

    /// Fetches Apple's current key set (JWKS) from the keys endpoint.
    public func fetchKeys() async throws(AppleSignInError) -> AppleKeySet {
        let reply = try await http.get(endpoints.keys)
        guard reply.status == 200 else {
            throw AppleSignInError(.keysUnavailable, "Apple's keys endpoint answered HTTP \(reply.status)")
        }
        return try AppleKeySet(jwks: reply.body)
    }
}

/// A cache of Apple's signing keys.
///
/// - Keys are fetched on first use and kept for ``Policy/freshFor``.
/// - A token naming an unknown `kid` triggers a refetch (Apple rotated its keys), but at most once per
///   ``Policy/minimumRefetchInterval``: a stream of tokens with random `kid`s cannot make us hammer Apple.
/// - When a refetch fails, the last key set keeps serving for up to ``Policy/maximumStaleness`` after it was fetched.
/// - Concurrent callers share one fetch.
public actor AppleKeyCache {
    /// How long keys are trusted and how often Apple may be asked.
    public struct Policy: Sendable {
        /// Age after which the key set is refetched on the next use.
        public var freshFor: TimeInterval
        /// The least time between two fetches (successful or not).
        public var minimumRefetchInterval: TimeInterval
        /// Age beyond which a key set is no longer served when Apple cannot be reached.
        public var maximumStaleness: TimeInterval

        /// Makes a policy; the defaults are one hour fresh, one refetch per minute, one day stale.
        public init(
            freshFor: TimeInterval = 3600, minimumRefetchInterval: TimeInterval = 60,
            maximumStaleness: TimeInterval = 86_400
        ) {
            self.freshFor = freshFor
            self.minimumRefetchInterval = minimumRefetchInterval
            self.maximumStaleness = maximumStaleness
        }
    }

    private let source: any AppleKeySource
    private let policy: Policy
    private let now: @Sendable () -> Date
    private var cached: (keys: AppleKeySet, fetchedAt: Date)?
    private var lastAttempt: Date?
    private var lastFailure: AppleSignInError?
    private var inFlight: Task<Result<AppleKeySet, AppleSignInError>, Never>?

    /// The number of fetches started, for observability and tests.
    public private(set) var fetchCount = 0

    /// Makes a cache over `source`. `now` is the clock (injectable for tests).
    public init(source: any AppleKeySource, policy: Policy = Policy(), now: @escaping @Sendable () -> Date = { Date() })
    {
        self.source = source
        self.policy = policy
        self.now = now
    }

    /// The key named `kid`. Throws `apple.unknownKey` when neither the cached nor a permitted refetched key set has it,
    /// and `apple.keysUnavailable` when no usable key set can be had.
    public func key(for kid: String) async throws(AppleSignInError) -> _RSA.Signing.PublicKey {
        let time = now()
        if let cached, time.timeIntervalSince(cached.fetchedAt) < policy.freshFor {
            if let key = cached.keys[kid] { return key }
            guard mayFetch(at: time) || inFlight != nil else {
                throw AppleSignInError(.unknownKey, "no Apple key has kid \"\(kid.prefix(64))\"")
            }
        }
        let keys = try await currentKeys(at: time)
        guard let key = keys[kid] else {
            throw AppleSignInError(.unknownKey, "no Apple key has kid \"\(kid.prefix(64))\"")
        }
        return key
    }

    /// Refetches if allowed, else serves what is cached within the staleness bound.
    private func currentKeys(at time: Date) async throws(AppleSignInError) -> AppleKeySet {
        if mayFetch(at: time) || inFlight != nil {
            switch await fetch(at: time) {
            case .success(let keys): return keys
            case .failure(let error): return try servedStale(at: time, after: error)
            }
        }
        return try servedStale(at: time, after: lastFailure)
    }

    private func servedStale(at time: Date, after error: AppleSignInError?) throws(AppleSignInError) -> AppleKeySet {
        if let cached, time.timeIntervalSince(cached.fetchedAt) < policy.maximumStaleness {
            return cached.keys
        }
        throw AppleSignInError(
            .keysUnavailable, "Apple's keys are unavailable" + (error.map { ": \($0.message)" } ?? ""))
    }

    private func mayFetch(at time: Date) -> Bool {
        guard let lastAttempt else { return true }
        return time.timeIntervalSince(lastAttempt) >= policy.minimumRefetchInterval
    }

    private func fetch(at time: Date) async -> Result<AppleKeySet, AppleSignInError> {
        if let inFlight { return await inFlight.value }
        lastAttempt = time
        fetchCount += 1
        let source = self.source
        let task = Task { () -> Result<AppleKeySet, AppleSignInError> in
            do throws(AppleSignInError) {
                return .success(try await source.fetchKeys())
            } catch {
                return .failure(error)
            }
        }
        inFlight = task
        let result = await task.value
        inFlight = nil
        switch result {
        case .success(let keys):
            cached = (keys, time)
            lastFailure = nil
        case .failure(let error):
            lastFailure = error
        }
        return result
    }
}
