/// A JSON value in a token the stand-in mints; tests set any claim to any of these, or remove it.
public enum ClaimValue: Encodable, Sendable, Equatable {
    /// A JSON string.
    case string(String)
    /// A JSON integer.
    case int(Int)
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON array of strings (e.g. a multi-valued `aud`).
    case strings([String])
    /// A JSON object (e.g. `events` sent as an object rather than Apple's JSON string).
    case object([String: ClaimValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// The claims of a token to mint. Set a key to `nil` to leave the claim out.
public typealias StandInClaims = [String: ClaimValue]
