import Foundation

/// One live session of the signed-in account, as `GET /v1/sessions` lists it: a device signed in.
public struct SessionSummary: Codable, Hashable, Sendable {
    /// The session's name in the API; `DELETE /v1/sessions/{id}` ends it. Not a token: it cannot sign anyone in.
    public var id: String
    public var createdAt: Date
    /// When the session was last used, to within a few minutes; nil when not since it was made.
    public var lastSeenAt: Date?
    public var expiresAt: Date
    /// "Safari on iPhone", "Chrome on Windows", an app's name; nil when the client did not say.
    public var device: String?
    /// The network it signed in from: an IPv4 /24 or an IPv6 /48, never the full address.
    public var network: String?
    /// Whether this is the session of the request that lists it.
    public var current: Bool

    public init(
        id: String, createdAt: Date, lastSeenAt: Date?, expiresAt: Date, device: String?, network: String?,
        current: Bool
    ) {
        self.id = id
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.device = device
        self.network = network
        self.current = current
    }
}

/// The body of `GET /v1/sessions`: `{"sessions":[…]}`, newest first.
public struct SessionList: Codable, Hashable, Sendable {
    public var sessions: [SessionSummary]

    public init(sessions: [SessionSummary]) {
        self.sessions = sessions
    }
}

/// How the signed-in user can prove who they are again, in the error of 401 `reauth.required`
/// (`error.reauthentication`): a sensitive change needs a session whose user proved it within the server's window.
/// Re-authenticating answers a new ``SessionResponse`` (a new token; the old session ends); then retry the change.
public struct ReauthenticationOptions: Codable, Hashable, Sendable {
    /// Options for a passkey assertion with user verification over the account's passkeys; send the ticket and the
    /// credential to `POST /v1/session/reauthenticate`. Nil when the account has no passkey.
    public var passkey: AuthenticationOptionsResponse?
    /// Whether the account's password re-authenticates: `POST /v1/session/reauthenticate/password`.
    public var password: Bool
    /// Whether signing in with Apple again does (the way of an account with neither passkey nor password).
    public var apple: Bool

    public init(passkey: AuthenticationOptionsResponse?, password: Bool, apple: Bool) {
        self.passkey = passkey
        self.password = password
        self.apple = apple
    }
}

/// The body of `POST /v1/session/reauthenticate/password`.
public struct ReauthenticatePasswordRequest: Codable, Hashable, Sendable {
    public var password: String

    public init(password: String) {
        self.password = password
    }
}
