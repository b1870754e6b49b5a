/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.1): what the server sends the client
/// to start a registration. Encodes to exactly the JSON `PublicKeyCredential.parseCreationOptionsFromJSON` takes.
public struct PublicKeyCredentialCreationOptions: Codable, Hashable, Sendable {
    public var rp: RelyingPartyEntity
    public var user: UserEntity
    public var challenge: Base64URLBytes
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    public var timeout: Int?
    public var excludeCredentials: [PublicKeyCredentialDescriptor]?
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    public var hints: [PublicKeyCredentialHint]?
    public var attestation: AttestationConveyancePreference?
    public var attestationFormats: [String]?
    public var extensions: [String: JSONValue]?

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

public struct RelyingPartyEntity: Codable, Hashable, Sendable {
    public var id: String?
    public var name: String
    public init(id: String?, name: String) {
        self.id = id
        self.name = name
    }
}

public struct UserEntity: Codable, Hashable, Sendable {
    /// The user handle: opaque bytes, at most 64, never personally identifying.
    public var id: Base64URLBytes
    public var name: String
    public var displayName: String
    public init(id: [UInt8], name: String, displayName: String) {
        self.id = Base64URLBytes(id)
        self.name = name
        self.displayName = displayName
    }
}

public struct PublicKeyCredentialParameters: Codable, Hashable, Sendable {
    public var type: PublicKeyCredentialType
    public var alg: COSEAlgorithm
    public init(alg: COSEAlgorithm, type: PublicKeyCredentialType = .publicKey) {
        self.type = type
        self.alg = alg
    }
}

public struct PublicKeyCredentialDescriptor: Codable, Hashable, Sendable {
    public var type: PublicKeyCredentialType
    public var id: Base64URLBytes
    public var transports: [AuthenticatorTransport]?
    public init(id: [UInt8], transports: [AuthenticatorTransport]? = nil, type: PublicKeyCredentialType = .publicKey) {
        self.type = type
        self.id = Base64URLBytes(id)
        self.transports = transports
    }
}

public struct AuthenticatorSelectionCriteria: Codable, Hashable, Sendable {
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var residentKey: ResidentKeyRequirement?
    public var requireResidentKey: Bool?
    public var userVerification: UserVerificationRequirement?
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
