import Foundation

/// The registered-claim checks shared by identity tokens and server-to-server notifications:
/// issuer, audience, expiry and issue time with a leeway.
public struct AppleClaimRules: Sendable {
    /// The client IDs tokens may be addressed to: the app's bundle IDs and the web Services ID.
    public var clientIDs: Set<String>
    /// Clock skew tolerated on `exp` and `iat`, in seconds.
    public var leeway: TimeInterval

    /// Makes rules accepting any of `clientIDs`, with `leeway` seconds of clock skew (default 60).
    public init(clientIDs: Set<String>, leeway: TimeInterval = 60) {
        self.clientIDs = clientIDs
        self.leeway = leeway
    }

    /// `iss` must be exactly `https://appleid.apple.com`.
    func checkIssuer(_ issuer: String?) throws(AppleSignInError) {
        guard let issuer else { throw AppleSignInError(.claimMissing, "the token has no iss") }
        guard issuer == AppleEndpoints.issuer else {
            throw AppleSignInError(
                .issuerMismatch, "the token's issuer is \"\(issuer.prefix(80))\", not \(AppleEndpoints.issuer)")
        }
    }

    /// Every `aud` value must be a configured client ID (Apple sends exactly one); returns it.
    func checkAudience(_ audience: AudienceClaim?) throws(AppleSignInError) -> String {
        guard let values = audience?.values, let first = values.first else {
            throw AppleSignInError(.claimMissing, "the token has no aud")
        }
        guard values.allSatisfy(clientIDs.contains) else {
            throw AppleSignInError(
                .audienceMismatch, "the token is for \"\(first.prefix(80))\", which is not a configured client ID")
        }
        return first
    }

    /// `exp` must be after `now - leeway`; `iat`, when required or present, not after `now + leeway`.
    /// Returns the checked expiry and issue time.
    @discardableResult
    func checkTimes(expires: NumericDate?, issued: NumericDate?, requireIssued: Bool, now: Date)
        throws(AppleSignInError) -> (expires: Date, issued: Date?)
    {
        let time = now.timeIntervalSince1970
        guard let expires else { throw AppleSignInError(.claimMissing, "the token has no exp") }
        guard expires.seconds > time - leeway else {
            throw AppleSignInError(.tokenExpired, "the token expired at \(expires.date)")
        }
        guard let issued else {
            if requireIssued { throw AppleSignInError(.claimMissing, "the token has no iat") }
            return (expires.date, nil)
        }
        guard issued.seconds <= time + leeway else {
            throw AppleSignInError(.issuedInFuture, "the token is issued in the future (\(issued.date))")
        }
        return (expires.date, issued.date)
    }
}
