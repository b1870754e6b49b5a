import Crypto
import Foundation
import LatchkeyStore
import NIOConcurrencyHelpers
import WebAuthn

/// The ES256 keys that sign access tokens, shared by every instance through the store and read from it at most once a
/// minute. Keys come in generations (``LatchkeyStore/StoredSigningKey``): when the newest is within ``AccessTokenConfiguration/publishLead``
/// of its rotation, the next is made, published at once and signing from `publishLead` later; a key stays published
/// until the access tokens it signed have expired, then it is deleted. Private keys are stored sealed with the secrets
/// key.
final class SigningKeyRing: Sendable {
    private let store: any TokenStore
    private let configuration: AccessTokenConfiguration
    private let cache = NIOLockedValueBox<(keys: [StoredSigningKey], readAt: Date)?>(nil)
    private let opened = NIOLockedValueBox<[String: SigningKey]>([:])

    /// How long keys read from the store are used before they are read again.
    static let cacheLifetime: TimeInterval = 60

    init(store: any TokenStore, configuration: AccessTokenConfiguration) {
        self.store = store
        self.configuration = configuration
    }

    /// The key that signs at `now`.
    func signingKey(now: Date = Date()) async throws -> SigningKey {
        let keys = try await current(now: now)
        guard let signing = keys.last(where: { $0.signsFrom <= now }) else {
            throw ServiceError(.internalError, "no signing key is due yet")
        }
        if let key = opened.withLockedValue({ $0[signing.keyID] }) { return key }
        let key: SigningKey
        do {
            let raw = try configuration.secrets.open(
                Array(signing.sealedPrivateKey), context: Self.context(signing.keyID))
            key = SigningKey(keyID: signing.keyID, key: try P256.Signing.PrivateKey(rawRepresentation: raw))
        } catch {
            throw ServiceError(
                .internalError,
                "the signing key \(signing.keyID) cannot be opened: is --secrets-key the one it was made with?")
        }
        opened.withLockedValue { $0[signing.keyID] = key }
        return key
    }

    /// The public keys verifiers need at `now` (the JWKs of `/.well-known/jwks.json`), as JSON objects.
    func publishedKeys(now: Date = Date()) async throws -> [String] {
        published(try await current(now: now), now: now).map(\.publicJWK)
    }

    private func published(_ keys: [StoredSigningKey], now: Date) -> [StoredSigningKey] {
        keys.enumerated().filter { index, _ in
            index + 1 == keys.count || keys[index + 1].signsFrom.addingTimeInterval(configuration.lifetime) > now
        }.map(\.element)
    }

    /// The keys at `now`: the cached ones while fresh, with the next generation made when it is due, and the keys no
    /// longer published deleted.
    private func current(now: Date) async throws -> [StoredSigningKey] {
        var keys: [StoredSigningKey]
        if let cached = cache.withLockedValue({ $0 }), now.timeIntervalSince(cached.readAt) < Self.cacheLifetime,
            cached.readAt <= now
        {
            keys = cached.keys
        } else {
            keys = try await store.signingKeys()
        }
        if let next = nextGeneration(after: keys, now: now) {
            _ = try await store.insertSigningKey(
                try make(generation: next.generation, signsFrom: next.signsFrom, now: now))
            keys = try await store.signingKeys()
            let published = published(keys, now: now)
            if let oldest = published.first, oldest.generation > (keys.first?.generation ?? 0) {
                try await store.deleteSigningKeys(before: oldest.generation)
                keys = published
            }
        }
        cache.withLockedValue { $0 = (keys, now) }
        return keys
    }

    /// The generation to make at `now`, if one is due: the first key signs at once; each next one is made
    /// `publishLead` before its predecessor's rotation and signs from then on.
    private func nextGeneration(after keys: [StoredSigningKey], now: Date) -> (generation: Int, signsFrom: Date)? {
        guard let newest = keys.last else { return (1, now) }
        let rotation = newest.signsFrom.addingTimeInterval(configuration.rotation)
        guard rotation.addingTimeInterval(-configuration.publishLead) <= now else { return nil }
        return (newest.generation + 1, max(rotation, now.addingTimeInterval(configuration.publishLead)))
    }

    private func make(generation: Int, signsFrom: Date, now: Date) throws -> StoredSigningKey {
        let key = P256.Signing.PrivateKey()
        let point = Array(key.publicKey.x963Representation)
        let (x, y) = (Base64URL.encode(point[1..<33]), Base64URL.encode(point[33..<65]))
        // RFC 7638: the thumbprint of the required members, in lexicographic order, is the key ID.
        let thumbprint = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        let keyID = Base64URL.encode(Array(SHA256.hash(data: Data(thumbprint.utf8))))
        let jwk = #"{"alg":"ES256","crv":"P-256","kid":"\#(keyID)","kty":"EC","use":"sig","x":"\#(x)","y":"\#(y)"}"#
        let sealed = try configuration.secrets.seal(Array(key.rawRepresentation), context: Self.context(keyID))
        // Whole seconds: the databases keep less than a Date's precision, and a key must not come back later than it was.
        func seconds(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
        return StoredSigningKey(
            generation: generation, keyID: keyID, sealedPrivateKey: Data(sealed), publicJWK: jwk,
            createdAt: seconds(now), signsFrom: seconds(signsFrom))
    }

    /// What a sealed key is bound to: its purpose and ID, so a sealed key cannot stand in for another.
    private static func context(_ keyID: String) -> [UInt8] { Array("latchkey signing key \(keyID)".utf8) }
}

/// A key that signs access tokens, opened: compact JWS (RFC 7515) with ES256,
/// base64url(header).base64url(claims).base64url(r‖s).
struct SigningKey: Sendable {
    /// The JWK `kid`.
    let keyID: String
    let key: P256.Signing.PrivateKey
    /// The header every token of this key has, encoded once.
    private let header: String

    init(keyID: String, key: P256.Signing.PrivateKey) {
        self.keyID = keyID
        self.key = key
        var json = JSONWriter()
        json.object { json in
            json.member("alg", "ES256")
            json.member("kid", keyID)
            json.member("typ", "at+jwt")
        }
        header = Base64URL.encode(json.bytes)
    }

    /// The token of `claims` (a JSON object).
    func sign(_ claims: [UInt8]) throws -> String {
        let input = header + "." + Base64URL.encode(claims)
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }
}
