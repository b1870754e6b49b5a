import AppleSignIn
import Foundation

/// Access tokens for other services (`--access-token-audience`, `--access-token-lifetime`, `--access-token-claims`,
/// `--signing-key-rotation`): off unless an audience is given. The signing keys are kept sealed with the secrets key
/// (`--secrets-key-file`), which is then required.
public struct AccessTokenConfiguration: Sendable {
    /// The `iss` claim: the first web origin.
    public let issuer: String
    /// The `aud` claim.
    public let audience: String
    /// How long an access token is valid.
    public let lifetime: TimeInterval
    /// How long a key signs before the next one takes over.
    public let rotation: TimeInterval
    /// How long a new key is published before it signs (so verifiers' cached key sets have it).
    public let publishLead: TimeInterval
    /// Claims the operator adds to every token: JSON values; in strings, `{user.id}`, `{user.name}` and
    /// `{user.displayName}` are filled in.
    let claims: [String: ClaimTemplate]
    let secrets: SecretBox

    public static let defaultLifetime = 300
    public static let defaultRotationDays = 30
    /// The claims the server sets itself, which a template may not.
    static let reservedClaims: Set<String> = [
        "iss", "sub", "aud", "iat", "nbf", "exp", "jti", "sid", "amr", "auth_time", "client_id", "scope",
    ]

    /// Nil when `settings` has no `accessTokenAudience`.
    init?(_ settings: ServerSettings, issuer: String) throws(ConfigurationError) {
        guard let audience = settings.accessTokenAudience else {
            for (value, flag) in [
                (settings.accessTokenLifetime != nil, "--access-token-lifetime"),
                (settings.accessTokenClaims != nil, "--access-token-claims"),
                (settings.signingKeyRotation != nil, "--signing-key-rotation"),
            ] where value {
                throw ConfigurationError(flag, "needs --access-token-audience")
            }
            return nil
        }
        guard !audience.isEmpty, audience.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw ConfigurationError("--access-token-audience", "'\(audience)' is not a printable ASCII identifier")
        }
        self.issuer = issuer
        self.audience = audience
        lifetime = TimeInterval(
            try ServerConfiguration.bounded(
                settings.accessTokenLifetime ?? Self.defaultLifetime, "--access-token-lifetime", 30...86_400,
                unit: " seconds", bounds: "30 seconds to one day"))
        let days = try ServerConfiguration.bounded(
            settings.signingKeyRotation ?? Self.defaultRotationDays, "--signing-key-rotation", 1...365,
            unit: " days", bounds: "1 to 365")
        rotation = TimeInterval(days) * 86_400
        publishLead = min(3600, rotation / 4)
        claims = try settings.accessTokenClaims.map(Self.claims(file:)) ?? [:]
        secrets = try AppleConfiguration.secretsKey(
            settings, reason: "access tokens are signed with keys kept encrypted, and need a key to encrypt them")
    }

    /// A claim's template: a JSON value, its strings with placeholders.
    enum ClaimTemplate: Sendable {
        case text(String)
        case value(JSONValue)
    }

    /// A JSON value: a claim of the template, or of a token.
    indirect enum JSONValue: Sendable, Hashable, Codable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case array([JSONValue])
        case object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let array = try? container.decode([JSONValue].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: JSONValue].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .number(let number):
                if number.rounded() == number, abs(number) < 9e15 {
                    try container.encode(Int64(number))
                } else {
                    try container.encode(number)
                }
            case .bool(let bool): try container.encode(bool)
            case .null: try container.encodeNil()
            case .array(let values): try container.encode(values)
            case .object(let values): try container.encode(values)
            }
        }
    }

    private static func claims(file path: String) throws(ConfigurationError) -> [String: ClaimTemplate] {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else {
            throw ConfigurationError("--access-token-claims", "\(path) is not a JSON object of claims")
        }
        var claims: [String: ClaimTemplate] = [:]
        for (name, value) in object {
            guard !reservedClaims.contains(name) else {
                throw ConfigurationError("--access-token-claims", "'\(name)' is a claim the server sets itself")
            }
            if case .string(let text) = value { claims[name] = .text(text) } else { claims[name] = .value(value) }
        }
        return claims
    }
}

extension AccessTokenConfiguration: CustomStringConvertible {
    /// The line `latchkey serve` prints on start when access tokens are on.
    public var description: String {
        "Access tokens: ES256 JWTs for \(audience) from \(issuer), valid \(Int(lifetime)) s; keys at \(issuer)/.well-known/jwks.json, rotated every \(Int(rotation / 86_400)) days"
    }
}
