import Foundation

/// `AuthenticationResponseJSON` (WebAuthn Level 3 §5.1): what `navigator.credentials.get()` returns, as JSON.
public struct AuthenticationCredential: Codable, Hashable, Sendable {
    public var id: String
    public var rawId: Base64URLBytes
    public var type: PublicKeyCredentialType
    public var response: AuthenticatorAssertionResponse
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var clientExtensionResults: [String: JSONValue]

    public init(
        rawId: [UInt8], response: AuthenticatorAssertionResponse,
        authenticatorAttachment: AuthenticatorAttachment? = nil, clientExtensionResults: [String: JSONValue] = [:]
    ) {
        self.id = Base64URL.encode(rawId)
        self.rawId = Base64URLBytes(rawId)
        self.type = .publicKey
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
    }

    enum CodingKeys: String, CodingKey {
        case id, rawId, type, response, authenticatorAttachment, clientExtensionResults, getClientExtensionResults
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        (id, rawId) = try CredentialIdentifiers.decode(from: container, id: .id, rawId: .rawId)
        type = try container.decode(PublicKeyCredentialType.self, forKey: .type)
        response = try container.decode(AuthenticatorAssertionResponse.self, forKey: .response)
        authenticatorAttachment = try? container.decodeIfPresent(AuthenticatorAttachment.self, forKey: .authenticatorAttachment)
        clientExtensionResults = try container.decodeIfPresent([String: JSONValue].self, forKey: .clientExtensionResults)
            ?? container.decodeIfPresent([String: JSONValue].self, forKey: .getClientExtensionResults) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(rawId, forKey: .rawId)
        try container.encode(type, forKey: .type)
        try container.encode(response, forKey: .response)
        try container.encodeIfPresent(authenticatorAttachment, forKey: .authenticatorAttachment)
        try container.encode(clientExtensionResults, forKey: .clientExtensionResults)
    }

    /// Parses the JSON a client sent, mapping any decoding failure to ``WebAuthnError/Code/malformedCredential``.
    public static func parse(_ json: some DataProtocol) throws(WebAuthnError) -> AuthenticationCredential {
        try AuthenticationCredential(json: Array(json))
    }
}

/// `AuthenticatorAssertionResponseJSON`.
public struct AuthenticatorAssertionResponse: Codable, Hashable, Sendable {
    public var clientDataJSON: Base64URLBytes
    public var authenticatorData: Base64URLBytes
    public var signature: Base64URLBytes
    public var userHandle: Base64URLBytes?

    public init(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]? = nil) {
        self.clientDataJSON = Base64URLBytes(clientDataJSON)
        self.authenticatorData = Base64URLBytes(authenticatorData)
        self.signature = Base64URLBytes(signature)
        self.userHandle = userHandle.map(Base64URLBytes.init)
    }

    enum CodingKeys: String, CodingKey { case clientDataJSON, authenticatorData, signature, userHandle }

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
