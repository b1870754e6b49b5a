/// `PublicKeyCredentialRequestOptionsJSON` (WebAuthn Level 3 §5.1.2): what the server sends the client
/// to start an authentication.
public struct PublicKeyCredentialRequestOptions: Codable, Hashable, Sendable {
    /// The challenge the client data must carry.
    public var challenge: Base64URLBytes
    /// The ceremony timeout in milliseconds.
    public var timeout: Int?
    /// The RP ID.
    public var rpId: String?
    /// The credentials that may answer; any discoverable one when nil.
    public var allowCredentials: [PublicKeyCredentialDescriptor]?
    /// Whether the user must be verified.
    public var userVerification: UserVerificationRequirement?
    /// Which kind of authenticator to offer first.
    public var hints: [PublicKeyCredentialHint]?
    /// The extension inputs.
    public var extensions: [String: JSONValue]?

    /// Options as given; ``RelyingParty/beginAuthentication(challenge:allowCredentials:userVerification:hints:extensions:)`` makes them from the relying party's policy.
    public init(
        challenge: [UInt8], timeout: Int? = nil, rpId: String? = nil,
        allowCredentials: [PublicKeyCredentialDescriptor]? = nil,
        userVerification: UserVerificationRequirement? = nil, hints: [PublicKeyCredentialHint]? = nil,
        extensions: [String: JSONValue]? = nil
    ) {
        self.challenge = Base64URLBytes(challenge)
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
        self.extensions = extensions
    }
}
