import ByteEncoding
import Crypto
import CryptoExtras
import Foundation

/// Apple's public signing keys (`GET /auth/keys`, a JWKS), indexed by `kid`.
///
/// Only RSA keys meant for RS256 signatures are kept; other entries are ignored rather than trusted.
public struct AppleKeySet: Sendable {
    /// The RSA public keys by key identifier.
    public let keys: [String: _RSA.Signing.PublicKey]

    /// Makes a key set from keys already at hand.
    public init(keys: [String: _RSA.Signing.PublicKey]) { self.keys = keys }

    /// Parses a JWKS document. Throws `apple.keysMalformed` when it is not `{"keys": [...]}` or holds no usable key.
    public init(jwks bytes: [UInt8]) throws(AppleSignInError) {
        let document = try decodeJSON(JWKSDocument.self, from: bytes, code: .keysMalformed, what: "Apple's key set")
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for jwk in document.keys
        where jwk.kty == "RSA" && (jwk.alg ?? "RS256") == "RS256" && (jwk.use ?? "sig") == "sig" {
            guard let kid = jwk.kid, let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { continue }
            keys[kid] = key
        }
        guard !keys.isEmpty else {
            throw AppleSignInError(.keysMalformed, "Apple's key set holds no usable RS256 key")
        }
        self.keys = keys
    }

    /// The key with this identifier, if any.
    public subscript(kid: String) -> _RSA.Signing.PublicKey? { keys[kid] }
}

/// One JWK as Apple publishes it.
struct JWK: Codable, Sendable {
    var kty: String
    var kid: String?
    var use: String?
    var alg: String?
    var n: String?
    var e: String?
}

/// `{"keys": [JWK]}`.
struct JWKSDocument: Codable, Sendable {
    var keys: [JWK]
}

extension _RSA.Signing.PublicKey {
    /// This key as a JWK (`kty` RSA, `alg` RS256, `use` sig) with the given `kid`.
    func jwk(kid: String) -> JWK? {
        guard let primitives = try? getKeyPrimitives() else { return nil }
        return JWK(
            kty: "RSA", kid: kid, use: "sig", alg: "RS256",
            n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
    }
}

extension AppleKeySet {
    /// The key set as a JWKS document, as Apple's keys endpoint serves it.
    public var jwksJSON: [UInt8] {
        encodeJSON(JWKSDocument(keys: keys.sorted { $0.key < $1.key }.compactMap { $0.value.jwk(kid: $0.key) }))
    }
}
