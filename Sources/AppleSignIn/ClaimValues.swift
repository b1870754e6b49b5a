import Foundation

/// A boolean claim that Apple sends either as a JSON boolean or as the string `"true"` / `"false"`
/// (`email_verified`, `is_private_email`).
public struct FlexibleBool: Decodable, Sendable, Equatable {
    /// The boolean value.
    public let value: Bool

    /// Makes a value.
    public init(_ value: Bool) { self.value = value }

    /// Decodes a JSON boolean or Apple's `"true"` / `"false"` strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            value = bool
        } else {
            switch try container.decode(String.self).lowercased() {
            case "true": value = true
            case "false": value = false
            default:
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not a boolean or \"true\"/\"false\"")
            }
        }
    }
}

/// A JWT NumericDate: seconds since 1970, as an integer or a fraction.
public struct NumericDate: Decodable, Sendable, Equatable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let seconds: Double

    /// Makes a value from seconds since 1970.
    public init(seconds: Double) { self.seconds = seconds }

    /// Decodes a JSON number of seconds since 1970; refuses a non-finite one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let seconds = try container.decode(Double.self)
        guard seconds.isFinite else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a finite number")
        }
        self.seconds = seconds
    }

    /// The date.
    public var date: Date { Date(timeIntervalSince1970: seconds) }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.seconds < rhs.seconds }
}

/// A JWT `aud` claim: one string or an array of strings.
struct AudienceClaim: Decodable, Sendable {
    let values: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            values = [one]
        } else {
            values = try container.decode([String].self)
        }
    }
}
