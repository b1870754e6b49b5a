/// The body of `POST /v1/passkeys/registration/options`: who is signing up.
public struct RegistrationOptionsRequest: Codable, Hashable, Sendable {
    /// The sign-in name of the new account (an email address or a nickname); unique, case-insensitively.
    public var username: String
    /// The name people see; the username when absent.
    public var displayName: String?

    public init(username: String, displayName: String? = nil) {
        self.username = username
        self.displayName = displayName
    }
}

/// The body of `POST /v1/passkeys/authentication/options`.
///
/// With a `username` the options list that user's passkeys in `allowCredentials`; without one (or with an empty
/// body) the sign-in is username-less and any discoverable passkey of this relying party can answer.
public struct AuthenticationOptionsRequest: Codable, Hashable, Sendable {
    public var username: String?

    public init(username: String? = nil) {
        self.username = username
    }
}

/// The body of `POST /v1/me/passkeys/registration/options` (optional): the label to give the new passkey, and
/// `mediation: "conditional"` for a conditional create (an automatic upgrade; the result may lack UP).
public struct AddPasskeyOptionsRequest: Codable, Hashable, Sendable {
    public var name: String?
    /// `"conditional"`, or absent for a normal (modal) registration.
    public var mediation: String?

    public init(name: String? = nil, mediation: String? = nil) {
        self.name = name
        self.mediation = mediation
    }
}
