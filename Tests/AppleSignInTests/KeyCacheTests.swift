import AppleSignIn
import AppleStandIn
import CryptoExtras
import Foundation
import Synchronization
import Testing

@Suite("Apple key cache: rotation, refetch throttle, stale on failure")
struct KeyCacheTests {
    @Test func fetchesOnceAndServesEveryPublishedKey() async throws {
        try await Harness.run { h in
            for kid in await h.standIn.publishedKIDs {
                let token = try await h.identityToken(signing: .key(kid: kid))
                _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1")
            }
            #expect(await h.standIn.keysRequestCount == 1)
        }
    }

    @Test func refetchesWhenAppleRotatesToANewKid() async throws {
        try await Harness.run { h in
            _ = try await h.verifier.verify(try await h.identityToken(), rawNonce: "raw-nonce-1")
            let newKID = try await h.standIn.rotateKeys(retireOldest: true)
            h.clock.advance(61)
            let token = try await h.identityToken(signing: .key(kid: newKID))
            _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1")
            #expect(await h.standIn.keysRequestCount == 2)
        }
    }

    @Test func unknownKidsDoNotHammerApple() async throws {
        try await Harness.run { h in
            _ = try await h.verifier.verify(try await h.identityToken(), rawNonce: "raw-nonce-1")
            for _ in 0..<5 {
                let token = try await h.identityToken(signing: .unknownKey)
                #expect(
                    await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .unknownKey)
            }
            // Within the minimum refetch interval of the first fetch: no refetch at all.
            #expect(await h.standIn.keysRequestCount == 1)
            h.clock.advance(61)
            for _ in 0..<5 {
                let token = try await h.identityToken(signing: .unknownKey)
                #expect(
                    await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .unknownKey)
            }
            // One refetch per interval, however many unknown kids arrive.
            #expect(await h.standIn.keysRequestCount == 2)
        }
    }

    @Test func aRotatedKeyInsideTheThrottleWindowWaitsForTheNextInterval() async throws {
        try await Harness.run { h in
            _ = try await h.verifier.verify(try await h.identityToken(), rawNonce: "raw-nonce-1")
            let newKID = try await h.standIn.rotateKeys()
            let token = try await h.identityToken(signing: .key(kid: newKID))
            #expect(await errorCode { _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1") } == .unknownKey)
            h.clock.advance(60)
            _ = try await h.verifier.verify(token, rawNonce: "raw-nonce-1")
        }
    }

    @Test func servesStaleKeysWhenAppleFailsWithinTheBound() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey
        let source = ScriptedSource(AppleKeySet(keys: ["k1": key]))
        let clock = TestClock()
        let cache = AppleKeyCache(
            source: source, policy: .init(freshFor: 3600, minimumRefetchInterval: 60, maximumStaleness: 86_400),
            now: clock.closure)
        _ = try await cache.key(for: "k1")
        source.fail()
        clock.advance(7200)
        _ = try await cache.key(for: "k1")  // stale, Apple down: still served
        #expect(source.calls == 2)
        clock.advance(86_400)
        #expect(await errorCode { _ = try await cache.key(for: "k1") } == .keysUnavailable)
    }

    @Test func refetchesAStaleKeySetEvenForAKnownKid() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey
        let source = ScriptedSource(AppleKeySet(keys: ["k1": key]))
        let clock = TestClock()
        let cache = AppleKeyCache(source: source, policy: .init(freshFor: 3600), now: clock.closure)
        _ = try await cache.key(for: "k1")
        clock.advance(3599)
        _ = try await cache.key(for: "k1")
        #expect(source.calls == 1)
        clock.advance(2)
        _ = try await cache.key(for: "k1")
        #expect(source.calls == 2)
        #expect(await cache.fetchCount == 2)
    }

    @Test func noKeysAndAppleDownIsKeysUnavailableAndThrottled() async throws {
        let source = ScriptedSource(nil)
        let clock = TestClock()
        let cache = AppleKeyCache(source: source, now: clock.closure)
        #expect(await errorCode { _ = try await cache.key(for: "k1") } == .keysUnavailable)
        #expect(await errorCode { _ = try await cache.key(for: "k1") } == .keysUnavailable)
        #expect(source.calls == 1)
    }

    @Test func concurrentCallersShareOneFetch() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey
        let source = ScriptedSource(AppleKeySet(keys: ["k1": key]))
        let cache = AppleKeyCache(source: source)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { _ = try await cache.key(for: "k1") } }
            try await group.waitForAll()
        }
        #expect(source.calls == 1)
    }

    @Test(arguments: [
        #"{"keys": []}"#, #"{"nokeys": 1}"#, "[]", #"{"keys":[{"kty":"EC","kid":"e","crv":"P-256"}]}"#,
        #"{"keys":[{"kty":"RSA","kid":"x","n":"AQAB","e":"AQAB"}]}"#,
    ])
    func rejectsUnusableKeySets(json: String) {
        do {
            _ = try AppleKeySet(jwks: Array(json.utf8))
            Issue.record("an unusable key set was accepted")
        } catch {
            #expect(error.code == .keysMalformed)
        }
    }
}

/// A key source that returns a set, or fails, as told.
final class ScriptedSource: AppleKeySource {
    private let state: Mutex<(keys: AppleKeySet?, calls: Int)>

    init(_ keys: AppleKeySet?) { state = Mutex((keys, 0)) }

    var calls: Int { state.withLock { $0.calls } }
    func fail() { state.withLock { $0.keys = nil } }

    func fetchKeys() async throws(AppleSignInError) -> AppleKeySet {
        let keys = state.withLock { state -> AppleKeySet? in
            state.calls += 1
            return state.keys
        }
        guard let keys else { throw AppleSignInError(.keysUnavailable, "scripted failure") }
        return keys
    }
}
