import WebAuthn

/// The body of `POST /v1/password/register`: a new account whose way in is a password.
public struct PasswordRegisterRequest: Codable, Hashable, Sendable {
    public var username: String
    /// The name people see; the username when absent.
    public var displayName: String?
    /// 15 to 128 characters (Unicode code points after NFKC normalisation), not a common password.
    public var password: String

    public init(username: String, displayName: String? = nil, password: String) {
        self.username = username
        self.displayName = displayName
        self.password = password
    }
}

/// The body of `POST /v1/password/signin`.
public struct PasswordSignInRequest: Codable, Hashable, Sendable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The body of `PUT /v1/password` (signed in): sets the account's password, or changes it — then
/// `currentPassword` is required.
public struct SetPasswordRequest: Codable, Hashable, Sendable {
    public var currentPassword: String?
    public var newPassword: String

    public init(currentPassword: String? = nil, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

/// The ways into an account, as `GET /v1/me` reports them in `signInMethods`.
public struct SignInMethods: Codable, Hashable, Sendable {
    /// How many passkeys the account has.
    public var passkeys: Int
    /// Whether it has a password.
    public var password: Bool
    /// Whether a Sign in with Apple ID is linked.
    public var apple: Bool

    public init(passkeys: Int, password: Bool, apple: Bool) {
        self.passkeys = passkeys
        self.password = password
        self.apple = apple
    }
}

/// The answer to `DELETE /v1/sessions` (sign out everywhere): every session has ended, and these ways in remain.
/// Ending sessions does not remove a way in: a passkey or password added by whoever held a session still works,
/// so a user who signs out everywhere because of a lost device should check this list (and remove what is not theirs).
///
/// ```json
/// {"remainingSignInMethods":{"passkeys":2,"password":true,"apple":false}}
/// ```
public struct SignedOutEverywhereResponse: Codable, Hashable, Sendable {
    public var remainingSignInMethods: SignInMethods

    public init(remainingSignInMethods: SignInMethods) {
        self.remainingSignInMethods = remainingSignInMethods
    }
}

/// What a client needs for the WebAuthn signal API (`PublicKeyCredential.signalAllAcceptedCredentials` and
/// `signalCurrentUserDetails`; on Apple platforms `ASCredentialUpdater`): the relying party, the user handle and the
/// credentials the server still accepts, with the user's current names.
///
/// ```json
/// {"rpId":"example.com","userId":"<base64url user handle>","allAcceptedCredentialIds":["…"],"name":"alice","displayName":"Alice"}
/// ```
public struct CredentialSignals: Codable, Hashable, Sendable {
    public var rpId: String
    /// The WebAuthn user handle, base64url.
    public var userId: String
    /// Every credential ID (base64url) of the user that the server accepts; any other passkey of this user and RP
    /// may be hidden or removed by the provider.
    public var allAcceptedCredentialIds: [String]
    public var name: String
    public var displayName: String

    public init(rpId: String, userId: String, allAcceptedCredentialIds: [String], name: String, displayName: String) {
        self.rpId = rpId
        self.userId = userId
        self.allAcceptedCredentialIds = allAcceptedCredentialIds
        self.name = name
        self.displayName = displayName
    }
}

/// The answer of `DELETE /v1/me/passkeys/{id}`: the signals after the removal.
public struct PasskeyRemoval: Codable, Hashable, Sendable {
    public var signals: CredentialSignals?

    public init(signals: CredentialSignals?) {
        self.signals = signals
    }
}
