import Foundation

/// An email address on an account. An address is added unverified, with a one-time code sent to it; the code verifies
/// it. A verified address belongs to one account only, compared case-insensitively (``key(of:)``); the first one
/// verified is the account's primary address, where notices go.
public struct StoredEmail: Sendable, Hashable {
    public var userID: UUID
    /// The address as the user gave it (trimmed).
    public var address: String
    /// When its code was entered, or nil while it is unverified.
    public var verifiedAt: Date?
    /// Whether notices go to this address (one verified address per account is primary).
    public var isPrimary: Bool
    public var createdAt: Date

    public init(userID: UUID, address: String, verifiedAt: Date? = nil, isPrimary: Bool = false, createdAt: Date) {
        self.userID = userID
        self.address = address
        self.verifiedAt = verifiedAt
        self.isPrimary = isPrimary
        self.createdAt = createdAt
    }

    /// What ``EmailStore/addEmail(_:toUser:codeHash:codeExpiresAt:now:)`` did.
    public enum Addition: Sendable, Hashable {
        /// The address is on the account, unverified, with the new code.
        case added
        /// The account has the address verified already; nothing changed.
        case alreadyVerified
        /// The account holds ``maximumPerAccount`` addresses; nothing changed.
        case tooMany
    }

    /// The most addresses, verified or not, one account holds.
    public static let maximumPerAccount = 5
    /// The longest address (RFC 5321's path limit less the brackets).
    public static let maximumLength = 254

    /// What addresses are compared by: the whole address lowercased. (RFC 5321 lets a server treat local parts
    /// case-sensitively; no provider people use does, and two accounts on `Ann@x` and `ann@x` would be a trap.)
    public static func key(of address: String) -> String { address.lowercased() }
}

/// A message waiting in the outbox: a notice to send, tried again with backoff until it is sent or given up.
public struct StoredMail: Sendable, Hashable {
    public var id: UUID
    public var recipient: String
    public var subject: String
    /// The plain-text body. The outbox holds notices only, never a one-time code (codes are sent from memory and
    /// never reach the disk in clear).
    public var body: String
    public var createdAt: Date
    /// Attempts so far (a claim counts as one).
    public var attempts: Int
    /// When the next attempt is due.
    public var nextAttemptAt: Date

    public init(
        id: UUID = UUID(), recipient: String, subject: String, body: String, createdAt: Date, attempts: Int = 0,
        nextAttemptAt: Date? = nil
    ) {
        self.id = id
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? createdAt
    }
}
