/// `PublicKeyCredentialRequestOptionsJSON` (WebAuthn Level 3 §5.1.2): what the server sends the client
/// to start an authentication.
public struct PublicKeyCredentialRequestOptions: Codable, Hashable, Sendable {
    public var challenge: Base64URLBytes
    public var timeout: Int?
    public var rpId: String?
    public var allowCredentials: [PublicKeyCredentialDescriptor]?
    public var userVerification: UserVerificationRequirement?
    public var hints: [PublicKeyCredentialHint]?
    public var extensions: [String: JSONValue]?

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
