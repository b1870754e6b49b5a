/// `AuthenticatorAttestationResponseJSON`.
public struct AuthenticatorAttestationResponse: Codable, Hashable, Sendable {
    /// The client data the attestation signed over.
    public var clientDataJSON: Base64URLBytes
    /// The CBOR attestation object.
    public var attestationObject: Base64URLBytes
    /// The authenticator data, when the client sends it separately.
    public var authenticatorData: Base64URLBytes?
    /// The transports the client says the authenticator supports.
    public var transports: [AuthenticatorTransport]?
    /// The credential public key as SubjectPublicKeyInfo, when the client sends it.
    public var publicKey: Base64URLBytes?
    /// The credential key's COSE algorithm, when the client sends it.
    public var publicKeyAlgorithm: Int?

    /// A response as given.
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

    /// Decodes the value from JSON.
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
