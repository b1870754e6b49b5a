import Foundation

/// The client data (WebAuthn §5.8.1) that the browser or platform collected and the authenticator signed over.
public struct CollectedClientData: Sendable, Hashable {
    public let type: String
    /// The challenge bytes (decoded from the base64url string the client wrote).
    public let challenge: [UInt8]
    public let origin: String
    public let crossOrigin: Bool
    public let topOrigin: String?
    public let tokenBindingStatus: String?
    /// The JSON bytes exactly as sent: the signature covers their SHA-256.
    public let rawValue: [UInt8]

    public static let createType = "webauthn.create"
    public static let getType = "webauthn.get"

    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw WebAuthnError(.clientDataMalformed, "clientDataJSON: \(CredentialIdentifiers.describe(error))")
        } catch {
            throw WebAuthnError(.clientDataMalformed, "clientDataJSON is not valid JSON")
        }
        guard let challenge = Base64URL.decode(wire.challenge) else {
            throw WebAuthnError(.clientDataMalformed, "clientDataJSON.challenge is not base64url")
        }
        self.type = wire.type
        self.challenge = challenge
        self.origin = wire.origin
        self.crossOrigin = wire.crossOrigin ?? false
        self.topOrigin = wire.topOrigin
        self.tokenBindingStatus = wire.tokenBinding?.status
        self.rawValue = bytes
    }

    private struct Wire: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
        let tokenBinding: TokenBinding?

        enum CodingKeys: String, CodingKey { case type, challenge, origin, crossOrigin, topOrigin, tokenBinding }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            challenge = try container.decode(String.self, forKey: .challenge)
            origin = try container.decode(String.self, forKey: .origin)
            crossOrigin = try container.decodeIfPresent(Bool.self, forKey: .crossOrigin)
            topOrigin = try container.decodeIfPresent(String.self, forKey: .topOrigin)
            // Token binding is gone from Level 3; early Firefox sent a bare string here. Only the
            // Level 2 object form carries a status to check.
            tokenBinding = try? container.decodeIfPresent(TokenBinding.self, forKey: .tokenBinding)
        }
    }

    private struct TokenBinding: Decodable {
        let status: String?
    }
}
