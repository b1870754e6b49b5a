/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.1): what the server sends the client
/// to start a registration. Encodes to exactly the JSON `PublicKeyCredential.parseCreationOptionsFromJSON` takes.
public struct PublicKeyCredentialCreationOptions: Codable, Hashable, Sendable {
    /// The relying party.
    public var rp: RelyingPartyEntity
    /// The account the credential is for.
    public var user: UserEntity
    /// The challenge the client data must carry.
    public var challenge: Base64URLBytes
    /// The accepted algorithms, most preferred first.
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// The ceremony timeout in milliseconds.
    public var timeout: Int?
    /// Credentials the authenticator must not already hold.
    public var excludeCredentials: [PublicKeyCredentialDescriptor]?
    /// Which authenticators may be used.
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// Which kind of authenticator to offer first.
    public var hints: [PublicKeyCredentialHint]?
    /// How much attestation is asked for.
    public var attestation: AttestationConveyancePreference?
    /// The attestation formats preferred, in order.
    public var attestationFormats: [String]?
    /// The extension inputs.
    public var extensions: [String: JSONValue]?

    /// Options as given; ``RelyingParty/beginRegistration(user:challenge:excludeCredentials:authenticatorAttachment:residentKey:userVerification:attestation:hints:extensions:)`` makes them from the relying party's policy.
    public init(
        rp: RelyingPartyEntity, user: UserEntity, challenge: [UInt8],
        pubKeyCredParams: [PublicKeyCredentialParameters], timeout: Int? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptor]? = nil,
        authenticatorSelection: AuthenticatorSelectionCriteria? = nil, hints: [PublicKeyCredentialHint]? = nil,
        attestation: AttestationConveyancePreference? = nil, attestationFormats: [String]? = nil,
        extensions: [String: JSONValue]? = nil
    ) {
        self.rp = rp
        self.user = user
        self.challenge = Base64URLBytes(challenge)
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.hints = hints
        self.attestation = attestation
        self.attestationFormats = attestationFormats
        self.extensions = extensions
    }
}

/// The relying party as the options name it.
public struct RelyingPartyEntity: Codable, Hashable, Sendable {
    /// The RP ID; the caller's effective domain when nil.
    public var id: String?
    /// The name shown to the user.
    public var name: String
    /// An entity as given.
    public init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}

/// The account a credential is for.
public struct UserEntity: Codable, Hashable, Sendable {
    /// The user handle: opaque bytes, at most 64, never personally identifying.
    public var id: Base64URLBytes
    /// The account name (email address, username).
    public var name: String
    /// The name shown to the user.
    public var displayName: String
    /// An entity as given; `id` is an opaque handle of at most 64 bytes.
    public init(id: [UInt8], name: String, displayName: String) {
        self.id = Base64URLBytes(id)
        self.name = name
        self.displayName = displayName
    }
}

/// One algorithm the relying party accepts.
public struct PublicKeyCredentialParameters: Codable, Hashable, Sendable {
    /// Always `public-key`.
    public var type: PublicKeyCredentialType
    /// The COSE algorithm offered.
    public var alg: COSEAlgorithm
    /// Parameters for `alg`, of type `public-key`.
    public init(alg: COSEAlgorithm, type: PublicKeyCredentialType = .publicKey) {
        self.type = type
        self.alg = alg
    }
}

/// A credential named in options: `allowCredentials` or `excludeCredentials`.
public struct PublicKeyCredentialDescriptor: Codable, Hashable, Sendable {
    /// Always `public-key`.
    public var type: PublicKeyCredentialType
    /// The credential ID.
    public var id: Base64URLBytes
    /// The transports stored for it, as hints to the client.
    public var transports: [AuthenticatorTransport]?
    /// A descriptor as given.
    public init(id: [UInt8], transports: [AuthenticatorTransport]? = nil, type: PublicKeyCredentialType = .publicKey) {
        self.type = type
        self.id = Base64URLBytes(id)
        self.transports = transports
    }
}

/// Which authenticators a registration may use.
public struct AuthenticatorSelectionCriteria: Codable, Hashable, Sendable {
    /// Platform or cross-platform; any when nil.
    public var authenticatorAttachment: AuthenticatorAttachment?
    /// Whether the credential must be discoverable.
    public var residentKey: ResidentKeyRequirement?
    /// Level 1's form of `residentKey: required`.
    public var requireResidentKey: Bool?
    /// Whether the user must be verified.
    public var userVerification: UserVerificationRequirement?
    /// Criteria as given.
    public init(
        authenticatorAttachment: AuthenticatorAttachment? = nil, residentKey: ResidentKeyRequirement? = nil,
        requireResidentKey: Bool? = nil, userVerification: UserVerificationRequirement? = nil
    ) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey ?? (residentKey == .required ? true : nil)
        self.userVerification = userVerification
    }
}
