/// WebAuthn's string enumerations are open: a value a later spec adds must not break parsing.
/// Each is a `RawRepresentable` string with the known values as static members.
public protocol OpenStringEnum: RawRepresentable<String>, Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    init(rawValue: String)
}

extension OpenStringEnum {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

public struct UserVerificationRequirement: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let required: Self = "required"
    public static let preferred: Self = "preferred"
    public static let discouraged: Self = "discouraged"
}

public struct AttestationConveyancePreference: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none: Self = "none"
    public static let indirect: Self = "indirect"
    public static let direct: Self = "direct"
    public static let enterprise: Self = "enterprise"
}

public struct AuthenticatorAttachment: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let platform: Self = "platform"
    public static let crossPlatform: Self = "cross-platform"
}

public struct ResidentKeyRequirement: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let required: Self = "required"
    public static let preferred: Self = "preferred"
    public static let discouraged: Self = "discouraged"
}

public struct AuthenticatorTransport: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let usb: Self = "usb"
    public static let nfc: Self = "nfc"
    public static let ble: Self = "ble"
    public static let smartCard: Self = "smart-card"
    public static let hybrid: Self = "hybrid"
    public static let `internal`: Self = "internal"
}

public struct PublicKeyCredentialHint: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let securityKey: Self = "security-key"
    public static let clientDevice: Self = "client-device"
    public static let hybrid: Self = "hybrid"
}

public struct PublicKeyCredentialType: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let publicKey: Self = "public-key"
}
