/// `AuthenticatorAssertionResponseJSON`.
public struct AuthenticatorAssertionResponse: Codable, Hashable, Sendable {
    /// The client data the authenticator signed over.
    public var clientDataJSON: Base64URLBytes
    /// The authenticator data.
    public var authenticatorData: Base64URLBytes
    /// The assertion signature over authenticator data and the client data hash.
    public var signature: Base64URLBytes
    /// The user handle, for discoverable credentials.
    public var userHandle: Base64URLBytes?

    /// A response as given.
    public init(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]? = nil) {
        self.clientDataJSON = Base64URLBytes(clientDataJSON)
        self.authenticatorData = Base64URLBytes(authenticatorData)
        self.signature = Base64URLBytes(signature)
        self.userHandle = userHandle.map(Base64URLBytes.init)
    }

    enum CodingKeys: String, CodingKey { case clientDataJSON, authenticatorData, signature, userHandle }

    /// Decodes the value from JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientDataJSON = try container.decode(Base64URLBytes.self, forKey: .clientDataJSON)
        authenticatorData = try container.decode(Base64URLBytes.self, forKey: .authenticatorData)
        signature = try container.decode(Base64URLBytes.self, forKey: .signature)
        // Some clients send "" for an absent user handle.
        let handle = try container.decodeIfPresent(Base64URLBytes.self, forKey: .userHandle)
        userHandle = handle?.bytes.isEmpty == true ? nil : handle
    }
}
