/// What an audit event records; the raw value is the stable name stored and served (`GET /admin/v1/audit`).
enum AuditEventType: String, Sendable, CaseIterable {
    case accountCreated = "account.created"
    case accountDeleted = "account.deleted"
    /// A sign-in that made a session; the detail is how (`passkey`, `password`, `apple`).
    case signInSucceeded = "signin.succeeded"
    /// A sign-in refused; the detail is the error code answered.
    case signInFailed = "signin.failed"
    case passkeyAdded = "passkey.added"
    case passkeyRemoved = "passkey.removed"
    case passkeyRenamed = "passkey.renamed"
    /// A passkey's backup-eligible flag changed at a sign-in that `--backup-eligibility-change accept-and-record` let
    /// through; the detail is the new flag.
    case passkeyBackupEligibilityChanged = "passkey.backupEligibilityChanged"
    case passwordSet = "password.set"
    case passwordChanged = "password.changed"
    case passwordRemoved = "password.removed"
    /// One session ended: signed out, or ended from the list of devices.
    case sessionEnded = "session.ended"
    /// Every session of the account ended (sign out everywhere, or an operator).
    case sessionsEnded = "sessions.ended"
    case emailAdded = "email.added"
    case emailVerified = "email.verified"
    case emailRemoved = "email.removed"
    case emailPrimary = "email.primary"
    case recoveryCodesGenerated = "recovery.codesGenerated"
    case recoveryLinkIssued = "recovery.linkIssued"
    /// A recovery code, emailed code or link was spent and a recovery session opened; the detail is the way (`code`,
    /// `email`, `link`).
    case recoveryStarted = "recovery.started"
    /// A recovery session registered its new passkey (recorded with its `passkey.added`).
    case recoveryUsed = "recovery.used"
    case appleLinked = "apple.linked"
    /// A server-to-server notification from Apple; the detail is its type.
    case appleNotification = "apple.notification"
}
