import Foundation

/// A Sign in with Apple identity linked to a user: one way in to the account, next to its passkeys.
///
/// The Apple user ID (``subject``, the identity token's `sub`) is unique: an Apple ID is linked to at most one user.
/// The store keeps ``sealedRefreshToken`` as given; the server seals it (AES-GCM) before handing it over, so the
/// plaintext refresh token never reaches the database.
public struct StoredAppleLink: Sendable, Hashable {
    /// Apple's stable user ID for the team (`sub`).
    public var subject: String
    /// The linked user, a ``StoredUser/id``.
    public var userID: UUID
    /// The client ID (bundle ID or Services ID) the refresh token was issued to: the one to revoke it with.
    public var clientID: String
    /// The refresh token, sealed by the server; nil when no authorization code was exchanged.
    public var sealedRefreshToken: Data?
    /// The email Apple gave on the first sign-in (possibly a private relay address), or the one the app sent.
    public var email: String?
    /// Whether ``email`` is verified: true only for an email from the identity token with `email_verified` true;
    /// an email the client supplied is never verified.
    public var emailVerified: Bool
    /// Whether ``email`` is a private relay address.
    public var isPrivateEmail: Bool
    /// Whether Apple relays mail to ``email`` (false after an `email-disabled` notification).
    public var emailEnabled: Bool
    public var createdAt: Date
    /// When the user last revoked the app's consent (Apple's `consent-revoked` notification), or nil. The link stays,
    /// so the same Apple ID signing in again comes back to its account; that sign-in clears this.
    public var consentRevokedAt: Date?

    public init(
        subject: String,
        userID: UUID,
        clientID: String,
        sealedRefreshToken: Data? = nil,
        email: String? = nil,
        isPrivateEmail: Bool = false,
        emailEnabled: Bool = true,
        createdAt: Date = Date(),
        emailVerified: Bool = false,
        consentRevokedAt: Date? = nil
    ) {
        self.subject = subject
        self.userID = userID
        self.clientID = clientID
        self.sealedRefreshToken = sealedRefreshToken
        self.email = email
        self.isPrivateEmail = isPrivateEmail
        self.emailEnabled = emailEnabled
        self.createdAt = createdAt
        self.emailVerified = emailVerified
        self.consentRevokedAt = consentRevokedAt
    }

    /// The longest subject and client ID the store accepts.
    public static let maximumIdentifierLength = 255

    /// Throws ``StoreError/Code/invalidRecord`` unless the link can be stored.
    func validate() throws(StoreError) {
        guard (1...Self.maximumIdentifierLength).contains(subject.utf8.count),
            (1...Self.maximumIdentifierLength).contains(clientID.utf8.count)
        else {
            throw StoreError(
                .invalidRecord,
                "an Apple link needs a subject and a client ID of 1 to \(Self.maximumIdentifierLength) bytes")
        }
    }
}

/// What ending an Apple link (``AppleLinkStore/endAppleLink(subject:deletingUserWithoutOtherWayIn:)``) did.
public struct EndedAppleLink: Sendable, Hashable {
    /// The link that was removed.
    public let link: StoredAppleLink
    /// How many of the user's sessions were ended.
    public let endedSessions: Int
    /// Whether the user was deleted too (it had no passkey and no other Apple link left).
    public let deletedUser: Bool

    public init(link: StoredAppleLink, endedSessions: Int, deletedUser: Bool) {
        self.link = link
        self.endedSessions = endedSessions
        self.deletedUser = deletedUser
    }
}
