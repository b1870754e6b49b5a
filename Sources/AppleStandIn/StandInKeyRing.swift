import AppleSignIn
import Crypto
import CryptoExtras
import Foundation
import Synchronization
import WebAuthn

/// The stand-in's RS256 signing keys: several published at once, one active, rotatable like Apple's.
actor StandInKeyRing {
    private var published: [(kid: String, key: _RSA.Signing.PrivateKey)] = []
    private var serial = 0
    /// The `kid` new tokens are signed with.
    private(set) var activeKID: String = ""

    init(count: Int) throws {
        let total = max(count, 1)
        published = try (1...total).map { ("standin-\($0)", try Self.pooledKey($0)) }
        serial = total
        activeKID = "standin-\(total)"
    }

    /// RSA key generation is slow; stand-ins in one process share keys by serial number (`standin-N` is always
    /// the N-th pooled key). Index 0 is the outsider key, never published.
    private static let pool = Mutex<[Int: _RSA.Signing.PrivateKey]>([:])

    private static func pooledKey(_ index: Int) throws -> _RSA.Signing.PrivateKey {
        if let key = pool.withLock({ $0[index] }) { return key }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        return pool.withLock { pool in
            if let existing = pool[index] { return existing }
            pool[index] = key
            return key
        }
    }

    /// Publishes a new key and makes it active; optionally withdraws the oldest. Returns the new `kid`.
    @discardableResult
    func rotate(retireOldest: Bool) throws -> String {
        let kid = try addKey()
        if retireOldest, published.count > 1 { published.removeFirst() }
        return kid
    }

    /// The published keys as Apple's JWKS.
    var jwks: [UInt8] {
        AppleKeySet(keys: Dictionary(uniqueKeysWithValues: published.map { ($0.kid, $0.key.publicKey) })).jwksJSON
    }

    /// The published `kid`s, oldest first.
    var kids: [String] { published.map(\.kid) }

    /// Serializes `payload` signed the way `signing` says.
    func sign(payload: [UInt8], signing: StandInSigning) throws -> String {
        switch signing {
        case .apple:
            return try rs256(payload: payload, kid: activeKID, key: try key(activeKID))
        case .key(let kid):
            return try rs256(payload: payload, kid: kid, key: try key(kid))
        case .unsigned:
            return CompactJWS.serialize(header: JWSHeader(alg: "none", kid: activeKID), payload: payload) { _ in [] }
        case .hmacWithPublicKey:
            let secret = SymmetricKey(data: Array(try key(activeKID).publicKey.pemRepresentation.utf8))
            return CompactJWS.serialize(header: JWSHeader(alg: "HS256", kid: activeKID), payload: payload) { input in
                Array(HMAC<SHA256>.authenticationCode(for: input, using: secret))
            }
        case .unknownKey:
            return try rs256(payload: payload, kid: "unknown-\(UUID().uuidString)", key: try Self.pooledKey(0))
        case .wrongKey:
            return try rs256(payload: payload, kid: activeKID, key: try Self.pooledKey(0))
        case .tamperedPayload:
            let token = try rs256(payload: payload, kid: activeKID, key: try key(activeKID))
            let parts = token.split(separator: ".").map(String.init)
            var claims = (try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]) ?? [:]
            claims["sub"] = "attacker." + ((claims["sub"] as? String) ?? "")
            let forged = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
            return [parts[0], Base64URL.encode(forged), parts[2]].joined(separator: ".")
        case .headerAlgorithm(let algorithm):
            let signer = try key(activeKID)
            return try CompactJWS.serialize(header: JWSHeader(alg: algorithm, kid: activeKID), payload: payload) {
                input in
                Array(
                    try signer.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation)
            }
        }
    }

    @discardableResult
    private func addKey() throws -> String {
        serial += 1
        let kid = "standin-\(serial)"
        published.append((kid, try Self.pooledKey(serial)))
        activeKID = kid
        return kid
    }

    private func key(_ kid: String) throws -> _RSA.Signing.PrivateKey {
        guard let entry = published.first(where: { $0.kid == kid }) else { throw StandInError.unknownKID(kid) }
        return entry.key
    }

    private func rs256(payload: [UInt8], kid: String, key: _RSA.Signing.PrivateKey) throws -> String {
        try CompactJWS.serialize(header: JWSHeader(alg: "RS256", kid: kid), payload: payload) { input in
            Array(try key.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }
}

/// Misuse of the stand-in by a test.
public enum StandInError: Error, Sendable {
    /// No published key has this `kid`.
    case unknownKID(String)
    /// The stand-in's server did not start.
    case notStarted
}
