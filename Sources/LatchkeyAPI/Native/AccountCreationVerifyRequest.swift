import WebAuthn

/// The body of `POST /v1/passkeys/account-creation/verify`: the ticket and credential as for any verify, and the
/// account's name, which a passkey sign-up sheet collects while it makes the passkey (iOS 26's
/// `ASAuthorizationAccountCreationProvider`: the user's email address or phone number, and their name).
public struct AccountCreationVerifyRequest: Codable, Hashable, Sendable {
    public var ticket: String
    public var credential: RegistrationCredential
    /// The sign-in name of the new account; unique, case-insensitively.
    public var username: String
    /// The name people see; the username when absent.
    public var displayName: String?

    public init(ticket: String, credential: RegistrationCredential, username: String, displayName: String? = nil) {
        self.ticket = ticket
        self.credential = credential
        self.username = username
        self.displayName = displayName
    }
}
