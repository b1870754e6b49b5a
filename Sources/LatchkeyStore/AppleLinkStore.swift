import Foundation

/// The Sign in with Apple part of a store: Apple IDs linked to users, the `jti`s of notifications already handled,
/// and pending web flows. Every ``LatchkeyStore`` is one.
///
/// Deleting a user (``LatchkeyStore/deleteUser(id:)``) removes their links and pending web flows too.
public protocol AppleLinkStore: Sendable {
    /// The link of this Apple user ID, or nil.
    func appleLink(subject: String) async throws(StoreError) -> StoredAppleLink?
    /// A user's Apple links, oldest first.
    func appleLinks(ofUser userID: UUID) async throws(StoreError) -> [StoredAppleLink]

    /// Commits a first Sign in with Apple in one transaction: creates `user` when given (a sign-up), adds `link`, and
    /// stores `session` when given. If any part fails nothing is written.
    ///
    /// Throws ``StoreError/Code/conflict`` if the subject is linked already (to anyone), ``StoreError/Code/notFound``
    /// if no user is given and the link's user does not exist, ``StoreError/Code/invalidRecord`` if `user` or
    /// `session` is for another user than `link.userID`.
    func commitAppleLink(_ link: StoredAppleLink, creating user: StoredUser?, session: StoredSession?)
        async throws(StoreError)

    /// Records a returning Sign in with Apple in one transaction: replaces the sealed refresh token and its client
    /// when `sealedRefreshToken` is given, clears ``StoredAppleLink/consentRevokedAt``, and stores `session`. Returns
    /// the link as it is now.
    ///
    /// Throws ``StoreError/Code/notFound`` if the subject is not linked and ``StoreError/Code/invalidRecord`` if the
    /// session is for another user.
    func recordAppleSignIn(
        subject: String, sealedRefreshToken: Data?, clientID: String, session: StoredSession
    ) async throws(StoreError) -> StoredAppleLink

    /// Ends a link in one transaction: removes it, ends the user's sessions and — with `deletingUserWithoutOtherWayIn`,
    /// when the user then has no passkey and no other Apple link — deletes the user. Returns nil (changing nothing)
    /// when the subject is not linked.
    func endAppleLink(subject: String, deletingUserWithoutOtherWayIn: Bool) async throws(StoreError) -> EndedAppleLink?

    /// Records that the user revoked the app's consent (`consent-revoked`), in one transaction: forgets the sealed
    /// refresh token, sets ``StoredAppleLink/consentRevokedAt`` and ends the user's sessions, but keeps the link, so
    /// the same Apple ID signing in again (``recordAppleSignIn(subject:sealedRefreshToken:clientID:session:)``, which
    /// clears the mark) comes back to its account instead of making a new one. Returns how many sessions ended, or nil
    /// (changing nothing) when the subject is not linked.
    func revokeAppleConsent(subject: String, now: Date) async throws(StoreError) -> Int?

    /// Sets whether Apple relays mail to the link's email; returns false when the subject is not linked.
    @discardableResult
    func setAppleEmailEnabled(subject: String, enabled: Bool) async throws(StoreError) -> Bool

    /// Whether a notification with this `jti` was recorded (and has not been purged).
    func appleNotificationSeen(id: String) async throws(StoreError) -> Bool
    /// Records a handled notification's `jti` until `expiresAt`; returns whether it is new.
    @discardableResult
    func recordAppleNotification(id: String, expiresAt: Date) async throws(StoreError) -> Bool

    /// Stores a pending web flow. Throws ``StoreError/Code/conflict`` if the state is taken and
    /// ``StoreError/Code/notFound`` if its user does not exist.
    func insertAppleWebState(_ state: StoredAppleWebState) async throws(StoreError)
    /// Atomically removes and returns the pending web flow with this state: of concurrent callers exactly one gets it.
    /// Throws ``StoreError/Code/notFound`` if there is none and ``StoreError/Code/expired`` if it had expired by `now`
    /// (it is removed all the same).
    func consumeAppleWebState(_ state: String, now: Date) async throws(StoreError) -> StoredAppleWebState

    /// Stores a nonce issued to an app for one Sign in with Apple. Throws ``StoreError/Code/conflict`` if it is taken.
    func insertAppleNonce(_ nonce: StoredAppleNonce) async throws(StoreError)

    /// Makes an identity token single-use, in one transaction: records that the token of `subject` whose `nonce`
    /// claim is `nonceHash` has signed in (kept until `expiresAt`, the token's `exp`) and, when `nonce` is given,
    /// consumes that server-issued nonce. Of concurrent callers with the same token exactly one succeeds.
    ///
    /// Throws, changing nothing: ``StoreError/Code/conflict`` if this subject and nonce hash are recorded already
    /// (a replayed token), ``StoreError/Code/notFound`` if `nonce` was never issued or is used, and
    /// ``StoreError/Code/expired`` if it had expired by `now`.
    func recordAppleTokenUse(
        subject: String, nonceHash: String, expiresAt: Date, consumingNonce nonce: String?, now: Date
    ) async throws(StoreError)

    /// Deletes expired web flows, notification ids, app nonces and token uses; returns how many.
    @discardableResult
    func purgeExpiredAppleRecords(now: Date) async throws(StoreError) -> Int
}

extension StoredAppleLink {
    /// The checks of ``AppleLinkStore/commitAppleLink(_:creating:session:)`` before it writes.
    func checkCommit(creating user: StoredUser?, session: StoredSession?) throws(StoreError) {
        try validate()
        try OutcomeChecks.checkOwner(userID, of: "the Apple link", creating: user, session: session)
    }
}
