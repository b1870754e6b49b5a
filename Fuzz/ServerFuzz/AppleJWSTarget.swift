import Crypto
import CryptoExtras
import Foundation
import FuzzSupport

@testable import AppleSignIn

/// Sign in with Apple's compact JWS: the token split and header, the verifier's checks up to the RS256 signature
/// (with a fixed key set), a server-to-server notification body, and Apple's JWKS document, each from the input.
enum AppleJWSTarget {
    struct FixedKeys: AppleKeySource {
        let set: AppleKeySet
        func fetchKeys() async throws(AppleSignInError) -> AppleKeySet { set }
    }

    static let keys: AppleKeyCache = {
        let key = (try? _RSA.Signing.PrivateKey(keySize: .bits2048))?.publicKey
        return AppleKeyCache(source: FixedKeys(set: AppleKeySet(keys: key.map { ["fuzz-kid": $0] } ?? [:])))
    }()
    static let rules = AppleClaimRules(clientIDs: ["com.example.app"])

    static func run(_ bytes: [UInt8]) {
        let token = String(decoding: bytes, as: UTF8.self)
        _ = try? AppleSignIn.CompactJWS(token)
        _ = try? AppleKeySet(jwks: bytes)
        blocking {
            _ = try? await AppleJWSVerifier(keys: keys).verifiedPayload(of: token)
            _ = try? await AppleNotificationVerifier(keys: keys, rules: rules).verify(body: bytes)
            _ = try? await AppleIdentityTokenVerifier(keys: keys, rules: rules).verify(token, rawNonce: "nonce")
        }
    }
}
