import Foundation

/// Verifies Sign in with Apple server-to-server notifications (`POST` body `{"payload": "<JWS>"}`): the same keys and
/// RS256 rule as identity tokens, `iss`, `aud` ∈ the configured client IDs, `exp` (and `iat` when present), then the
/// `events` JSON string into a typed ``AppleNotificationEvent``.
public struct AppleNotificationVerifier: Sendable {
    private let signatures: AppleJWSVerifier
    private let rules: AppleClaimRules
    private let now: @Sendable () -> Date

    /// Makes a verifier using `keys` for signatures and `rules` for the claims; `now` is the clock.
    public init(keys: AppleKeyCache, rules: AppleClaimRules, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signatures = AppleJWSVerifier(keys: keys)
        self.rules = rules
        self.now = now
    }

    /// Verifies the HTTP body Apple posts, `{"payload": "<JWS>"}`.
    public func verify(body: [UInt8]) async throws(AppleSignInError) -> AppleNotification {
        struct Body: Decodable { var payload: String }
        let envelope = try decodeJSON(
            Body.self, from: body, code: .malformedNotification, what: "the notification body")
        return try await verify(payload: envelope.payload)
    }

    /// Verifies the notification JWS itself.
    private func verify(payload token: String) async throws(AppleSignInError) -> AppleNotification {
        let claims = try await signatures.verifiedClaims(
            of: token, as: NotificationClaims.self, code: .malformedNotification,
            what: "the notification's claims")
        try rules.checkIssuer(claims.iss)
        let audience = try rules.checkAudience(claims.aud)
        let times = try rules.checkTimes(expires: claims.exp, issued: claims.iat, requireIssued: false, now: now())
        guard let events = claims.events else {
            throw AppleSignInError(.malformedNotification, "the notification has no events claim")
        }
        let raw = events.event
        guard let kind = AppleNotificationEvent.Kind(rawValue: raw.type) else {
            throw AppleSignInError(.unknownEventType, "unknown notification event type \"\(raw.type.prefix(40))\"")
        }
        guard !raw.sub.isEmpty else {
            throw AppleSignInError(.malformedNotification, "the notification's event has an empty sub")
        }
        let event = AppleNotificationEvent(
            kind: kind, subject: raw.sub, eventTime: raw.event_time.map(Self.eventDate),
            email: raw.email, isPrivateEmail: raw.is_private_email?.value
        )
        return AppleNotification(id: claims.jti, audience: audience, issuedAt: times.issued, event: event)
    }

    /// `event_time` is documented in milliseconds but has been seen in seconds; values past 10¹¹ are taken as milliseconds.
    private static func eventDate(_ value: Double) -> Date {
        Date(timeIntervalSince1970: value > 100_000_000_000 ? value / 1000 : value)
    }
}
