import Foundation

/// A verified server-to-server notification from Apple.
public struct AppleNotification: Sendable, Equatable {
    /// The notification's unique ID (`jti`), for de-duplication; nil if Apple sent none.
    public let id: String?
    /// The client ID the notification is for (`aud`).
    public let audience: String
    /// When Apple issued it (`iat`), if present.
    public let issuedAt: Date?
    /// What happened.
    public let event: AppleNotificationEvent
}

/// One event of a server-to-server notification.
public struct AppleNotificationEvent: Sendable, Equatable {
    /// The event types Apple sends.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The user stopped using Sign in with Apple with the app: end the Apple link and sessions.
        case consentRevoked = "consent-revoked"
        /// The user deleted their Apple account (the older spelling).
        case accountDelete = "account-delete"
        /// The user deleted their Apple account.
        case accountDeleted = "account-deleted"
        /// The user stopped relaying email through the private relay.
        case emailDisabled = "email-disabled"
        /// The user resumed relaying email through the private relay.
        case emailEnabled = "email-enabled"

        /// Whether this event ends the user's link with the app (consent revoked or account deleted).
        public var endsLink: Bool { self == .consentRevoked || self == .accountDelete || self == .accountDeleted }
    }

    /// The event type.
    public let kind: Kind
    /// The user's Apple ID (`sub`).
    public let subject: String
    /// When the event happened, if Apple says.
    public let eventTime: Date?
    /// The relay email the event concerns (email events).
    public let email: String?
    /// Whether ``email`` is a private relay address (boolean or string on the wire).
    public let isPrivateEmail: Bool?
}

/// The claims of a notification JWS.
struct NotificationClaims: Decodable {
    var iss: String?
    var aud: AudienceClaim?
    var exp: NumericDate?
    var iat: NumericDate?
    var jti: String?
    var events: EventsClaim?
}

/// `events`: a JSON string holding the event object (Apple's form); an object is accepted too.
struct EventsClaim: Decodable {
    let event: RawEvent

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            event = try JSONDecoder().decode(RawEvent.self, from: Data(text.utf8))
        } else {
            event = try container.decode(RawEvent.self)
        }
    }
}

/// The event object inside `events`.
struct RawEvent: Decodable {
    var type: String
    var sub: String
    var event_time: Double?
    var email: String?
    var is_private_email: FlexibleBool?
}
