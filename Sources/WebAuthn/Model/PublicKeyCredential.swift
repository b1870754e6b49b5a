import Foundation

/// A `PublicKeyCredential` in its Level 3 JSON form (WebAuthn §5.1): the envelope shared by registration and
/// authentication responses, generic over the authenticator response it carries.
///
/// Decoding is tolerant where real clients differ: `rawId` or `id` alone is enough, binary members may be padded or
/// standard base64, and `getClientExtensionResults` (the conformance tools' name) is accepted for `clientExtensionResults`.
public struct PublicKeyCredential<Response: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The credential ID, base64url.
    public var id: String
    /// The credential ID.
    public var rawId: Base64URLBytes
    /// Always `public-key` for WebAuthn.
    public var type: PublicKeyCredentialType
    /// The authenticator's response.
    public var response: Response
    /// How the authenticator was attached, when the client says.
    public var authenticatorAttachment: AuthenticatorAttachment?
    /// The client extension outputs, as sent.
    public var clientExtensionResults: [String: JSONValue]

    /// A credential as given; `id` is the base64url of `rawId`.
    public init(
        rawId: [UInt8], response: Response,
        authenticatorAttachment: AuthenticatorAttachment? = nil, clientExtensionResults: [String: JSONValue] = [:]
    ) {
        self.id = Base64URL.encode(rawId)
        self.rawId = Base64URLBytes(rawId)
        self.type = .publicKey
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
    }

    init(
        id: String, rawId: [UInt8], type: PublicKeyCredentialType, response: Response,
        authenticatorAttachment: AuthenticatorAttachment?, clientExtensionResults: [String: JSONValue]
    ) {
        self.id = id
        self.rawId = Base64URLBytes(rawId)
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
    }

    enum CodingKeys: String, CodingKey {
        case id, rawId, type, response, authenticatorAttachment, clientExtensionResults, getClientExtensionResults
    }

    /// Decodes the value from JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        (id, rawId) = try CredentialIdentifiers.decode(from: container, id: .id, rawId: .rawId)
        type = try container.decode(PublicKeyCredentialType.self, forKey: .type)
        response = try container.decode(Response.self, forKey: .response)
        authenticatorAttachment = try? container.decodeIfPresent(
            AuthenticatorAttachment.self, forKey: .authenticatorAttachment)
        clientExtensionResults =
            try container.decodeIfPresent([String: JSONValue].self, forKey: .clientExtensionResults)
            ?? container.decodeIfPresent([String: JSONValue].self, forKey: .getClientExtensionResults) ?? [:]
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(rawId, forKey: .rawId)
        try container.encode(type, forKey: .type)
        try container.encode(response, forKey: .response)
        try container.encodeIfPresent(authenticatorAttachment, forKey: .authenticatorAttachment)
        try container.encode(clientExtensionResults, forKey: .clientExtensionResults)
    }
}

/// `RegistrationResponseJSON`: what `navigator.credentials.create()` returns, as JSON.
public typealias RegistrationCredential = PublicKeyCredential<AuthenticatorAttestationResponse>

/// `AuthenticationResponseJSON`: what `navigator.credentials.get()` returns, as JSON.
public typealias AuthenticationCredential = PublicKeyCredential<AuthenticatorAssertionResponse>

extension PublicKeyCredential where Response == AuthenticatorAttestationResponse {
    /// Parses the JSON a client sent. Any failure is a ``WebAuthnError`` (`malformedCredential`, `invalidBase64`,
    /// `credentialIdMismatch`).
    public static func parse(_ json: some DataProtocol) throws(WebAuthnError) -> RegistrationCredential {
        try RegistrationCredential(json: Array(json))
    }
}

extension PublicKeyCredential where Response == AuthenticatorAssertionResponse {
    /// Parses the JSON a client sent. Any failure is a ``WebAuthnError`` (`malformedCredential`, `invalidBase64`,
    /// `credentialIdMismatch`).
    public static func parse(_ json: some DataProtocol) throws(WebAuthnError) -> AuthenticationCredential {
        try AuthenticationCredential(json: Array(json))
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
