import Crypto
import CryptoExtras

/// Verifies the signature of a JWS that Apple signed: RS256 only, key chosen by `kid` from Apple's key set.
///
/// The algorithm is fixed, never taken from the token: `none`, `HS256` (including HMAC keyed with Apple's public
/// key), `ES256`, `PS256` and every other value are rejected before any key is looked up.
public struct AppleJWSVerifier: Sendable {
    /// The only algorithm Apple uses for identity tokens and notifications.
    public static let algorithm = "RS256"

    private let keys: AppleKeyCache

    /// Makes a verifier over a key cache.
    public init(keys: AppleKeyCache) { self.keys = keys }

    /// Returns the token's payload bytes once its header and signature check out.
    public func verifiedPayload(of token: String) async throws(AppleSignInError) -> [UInt8] {
        let jws = try CompactJWS(token)
        guard jws.header.alg == Self.algorithm else {
            throw AppleSignInError(
                .algorithmNotAllowed, "Apple signs with RS256; this token says \"\(jws.header.alg.prefix(16))\"")
        }
        guard let kid = jws.header.kid, !kid.isEmpty else {
            throw AppleSignInError(.unknownKey, "the token's header names no kid")
        }
        let key = try await keys.key(for: kid)
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jws.signature)
        guard key.isValidSignature(signature, for: SHA256.hash(data: jws.signingInput), padding: .insecurePKCS1v1_5)
        else {
            throw AppleSignInError(
                .badSignature, "the token's RS256 signature does not verify under Apple's key \"\(kid.prefix(64))\"")
        }
        return jws.payload
    }

    /// Verifies the token and decodes its payload as `Claims`, failing with `code` when the payload does not decode.
    func verifiedClaims<Claims: Decodable>(
        of token: String, as type: Claims.Type, code: AppleSignInError.Code, what: String
    )
        async throws(AppleSignInError) -> Claims
    {
        try decodeJSON(type, from: try await verifiedPayload(of: token), code: code, what: what)
    }
}
