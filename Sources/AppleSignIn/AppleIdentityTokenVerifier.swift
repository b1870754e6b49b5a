import Foundation

/// Verifies Sign in with Apple identity tokens, checking every claim explicitly.
///
/// In order: the JWS shape, `alg` = RS256, the key by `kid` (``AppleKeyCache``), the signature, `iss`, `aud` ∈ the
/// configured client IDs, `exp` and `iat` with leeway, `sub`, and the nonce rule (``AppleNonce``).
public struct AppleIdentityTokenVerifier: Sendable {
    private let signatures: AppleJWSVerifier
    private let rules: AppleClaimRules
    private let now: @Sendable () -> Date

    /// Makes a verifier using `keys` for signatures and `rules` for the claims; `now` is the clock.
    public init(keys: AppleKeyCache, rules: AppleClaimRules, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signatures = AppleJWSVerifier(keys: keys)
        self.rules = rules
        self.now = now
    }

    /// Verifies `token`.
    /// - Parameters:
    ///   - token: the identity token (a compact JWS) the app or web page received from Apple.
    ///   - rawNonce: the raw nonce the sign-in started with, when the server expects one; the token's
    ///     `nonce` must then be its SHA-256 hex. Pass `nil` only for flows that use no nonce.
    /// - Returns: the verified identity.
    public func verify(_ token: String, rawNonce: String?) async throws(AppleSignInError) -> AppleIdentity {
        let claims = try await signatures.verifiedClaims(
            of: token, as: IdentityTokenClaims.self, code: .malformedToken,
            what: "the identity token's claims")
        try rules.checkIssuer(claims.iss)
        let audience = try rules.checkAudience(claims.aud)
        let times = try rules.checkTimes(expires: claims.exp, issued: claims.iat, requireIssued: true, now: now())
        guard let issuedAt = times.issued else { throw AppleSignInError(.claimMissing, "the token has no iat") }
        guard let subject = claims.sub, !subject.isEmpty else {
            throw AppleSignInError(.claimMissing, "the identity token has no sub")
        }
        try AppleNonce.check(claim: claims.nonce, expected: rawNonce)
        return AppleIdentity(
            subject: subject,
            audience: audience,
            email: claims.email,
            emailVerified: claims.email_verified?.value,
            isPrivateEmail: claims.is_private_email?.value,
            realUserStatus: claims.real_user_status.flatMap(AppleIdentity.RealUserStatus.init(rawValue:)),
            transferSubject: claims.transfer_sub,
            issuedAt: issuedAt,
            expiresAt: times.expires,
            authTime: claims.auth_time?.date,
            nonceSupported: claims.nonce_supported?.value
        )
    }
}
