import WebAuthn

/// `ServerPublicKeyCredentialCreationOptionsRequest`: the body of `POST /attestation/options`.
public struct ServerCreationOptionsRequest: Codable, Hashable, Sendable {
    /// The account's sign-in name.
    public var username: String
    /// The name people see.
    public var displayName: String
    /// Echoed in the options; `userVerification: required` is enforced on the result.
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// Echoed in the options.
    public var attestation: AttestationConveyancePreference?
    /// Client extension inputs, echoed in the options.
    public var extensions: [String: JSONValue]?

    public init(
        username: String, displayName: String, authenticatorSelection: AuthenticatorSelectionCriteria? = nil,
        attestation: AttestationConveyancePreference? = nil, extensions: [String: JSONValue]? = nil
    ) {
        self.username = username
        self.displayName = displayName
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
        self.extensions = extensions
    }
}

/// `ServerPublicKeyCredentialCreationOptionsResponse`: ``ServerResponse`` plus the creation options members.
///
/// `excludeCredentials` is always present (empty when the user has no credential), and `authenticatorSelection`
/// and `attestation` always echo what was asked, since profile clients decode them as required members.
public struct ServerCreationOptionsResponse: Codable, Hashable, Sendable {
    public var status: ServerStatus
    public var errorMessage: String
    public var rp: RelyingPartyEntity
    public var user: UserEntity
    public var challenge: Base64URLBytes
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    public var timeout: Int?
    public var excludeCredentials: [PublicKeyCredentialDescriptor]
    public var authenticatorSelection: AuthenticatorSelectionCriteria
    public var attestation: AttestationConveyancePreference
    public var extensions: [String: JSONValue]?

    /// The response for `options`, with `status: ok`.
    public init(options: PublicKeyCredentialCreationOptions) {
        self.status = .ok
        self.errorMessage = ""
        self.rp = options.rp
        self.user = options.user
        self.challenge = options.challenge
        self.pubKeyCredParams = options.pubKeyCredParams
        self.timeout = options.timeout
        self.excludeCredentials = options.excludeCredentials ?? []
        self.authenticatorSelection = options.authenticatorSelection ?? AuthenticatorSelectionCriteria()
        self.attestation = options.attestation ?? .none
        self.extensions = options.extensions
    }

    /// The L3 creation options this response carries, for a client to pass to its authenticator.
    public var options: PublicKeyCredentialCreationOptions {
        PublicKeyCredentialCreationOptions(
            rp: rp, user: user, challenge: challenge.bytes, pubKeyCredParams: pubKeyCredParams, timeout: timeout,
            excludeCredentials: excludeCredentials, authenticatorSelection: authenticatorSelection,
            attestation: attestation, extensions: extensions
        )
    }
}
