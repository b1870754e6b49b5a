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
