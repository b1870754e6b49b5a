import Foundation

/// A verified Sign in with Apple identity token: who the user is, for which client, and what Apple says about them.
public struct AppleIdentity: Sendable, Equatable {
    /// The stable user identifier (`sub`), unique per developer team.
    public let subject: String
    /// The client ID the token was issued to (`aud`): a bundle ID or the Services ID.
    public let audience: String
    /// The user's email (possibly a private relay address), when the scope was granted.
    public let email: String?
    /// Whether Apple verified the email (`email_verified`, sent as a boolean or a string).
    public let emailVerified: Bool?
    /// Whether the email is a private relay address (`is_private_email`, boolean or string).
    public let isPrivateEmail: Bool?
    /// Apple's real-user indicator (`real_user_status`), when present.
    public let realUserStatus: RealUserStatus?
    /// The user's identifier under the previous team after an app transfer (`transfer_sub`).
    public let transferSubject: String?
    /// When the token was issued.
    public let issuedAt: Date
    /// When the token expires.
    public let expiresAt: Date
    /// When the user authenticated, if Apple says.
    public let authTime: Date?
    /// Whether the platform supports nonces (`nonce_supported`), if Apple says.
    public let nonceSupported: Bool?

    /// Apple's judgement of whether the user is a real person (`real_user_status`).
    public enum RealUserStatus: Int, Sendable, Equatable {
        /// 0: the platform cannot tell (not iOS, or too old).
        case unsupported = 0
        /// 1: not enough information to tell.
        case unknown = 1
        /// 2: very likely a real person.
        case likelyReal = 2
    }
}

/// The claims of an Apple identity token, as they arrive.
struct IdentityTokenClaims: Decodable {
    var iss: String?
    var aud: AudienceClaim?
    var exp: NumericDate?
    var iat: NumericDate?
    var sub: String?
    var nonce: String?
    var nonce_supported: FlexibleBool?
    var email: String?
    var email_verified: FlexibleBool?
    var is_private_email: FlexibleBool?
    var real_user_status: Int?
    var transfer_sub: String?
    var auth_time: NumericDate?
}
