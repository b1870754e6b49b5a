import Foundation

/// `RegistrationResponseJSON` (WebAuthn Level 3 §5.1): what `navigator.credentials.create()` returns, as JSON.
///
/// Decoding is tolerant where real clients differ: `rawId` or `id` alone is enough, binary fields may be
/// padded or standard base64, and `getClientExtensionResults` (the conformance tools' name) is accepted
/// for `clientExtensionResults`.
public struct RegistrationCredential: Codable, Hashable, Sendable {
    public var id: String
    public var rawId: Base64URLBytes
    public var type: PublicKeyCredentialType
    public var response: AuthenticatorAttestationResponse
    public var authenticatorAttachment: AuthenticatorAttachment?
    public var clientExtensionResults: [String: JSONValue]

    public init(
        rawId: [UInt8], response: AuthenticatorAttestationResponse,
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
        response = try container.decode(AuthenticatorAttestationResponse.self, forKey: .response)
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
    public static func parse(_ json: some DataProtocol) throws(WebAuthnError) -> RegistrationCredential {
        try RegistrationCredential(json: Array(json))
    }
}

/// `AuthenticatorAttestationResponseJSON`.
public struct AuthenticatorAttestationResponse: Codable, Hashable, Sendable {
    public var clientDataJSON: Base64URLBytes
    public var attestationObject: Base64URLBytes
    public var authenticatorData: Base64URLBytes?
    public var transports: [AuthenticatorTransport]?
    public var publicKey: Base64URLBytes?
    public var publicKeyAlgorithm: Int?

    public init(
        clientDataJSON: [UInt8], attestationObject: [UInt8], authenticatorData: [UInt8]? = nil,
        transports: [AuthenticatorTransport]? = nil, publicKey: [UInt8]? = nil, publicKeyAlgorithm: Int? = nil
    ) {
        self.clientDataJSON = Base64URLBytes(clientDataJSON)
        self.attestationObject = Base64URLBytes(attestationObject)
        self.authenticatorData = authenticatorData.map(Base64URLBytes.init)
        self.transports = transports
        self.publicKey = publicKey.map(Base64URLBytes.init)
        self.publicKeyAlgorithm = publicKeyAlgorithm
    }

    enum CodingKeys: String, CodingKey {
        case clientDataJSON, attestationObject, authenticatorData, transports, publicKey, publicKeyAlgorithm
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientDataJSON = try container.decode(Base64URLBytes.self, forKey: .clientDataJSON)
        attestationObject = try container.decode(Base64URLBytes.self, forKey: .attestationObject)
        // The convenience fields are informational: a client that mangles them must not fail the ceremony,
        // which reads everything from the attestation object.
        authenticatorData = try? container.decodeIfPresent(Base64URLBytes.self, forKey: .authenticatorData)
        transports = try? container.decodeIfPresent([AuthenticatorTransport].self, forKey: .transports)
        publicKey = try? container.decodeIfPresent(Base64URLBytes.self, forKey: .publicKey)
        publicKeyAlgorithm = try? container.decodeIfPresent(Int.self, forKey: .publicKeyAlgorithm)
    }
}

/// Shared handling of `id` / `rawId` and of JSON parse errors for both credential kinds.
enum CredentialIdentifiers {
    static func decode<K: CodingKey>(
        from container: KeyedDecodingContainer<K>, id idKey: K, rawId rawIdKey: K
    ) throws -> (String, Base64URLBytes) {
        let id = try container.decodeIfPresent(String.self, forKey: idKey)
        let rawId = try container.decodeIfPresent(Base64URLBytes.self, forKey: rawIdKey)
        do {
            let (finalID, bytes) = try CredentialJSONParser.reconcile(id: id, rawId: rawId?.bytes)
            return (finalID, Base64URLBytes(bytes))
        } catch {
            throw DecodingError.dataCorruptedError(forKey: idKey, in: container, debugDescription: error.message)
        }
    }
}
