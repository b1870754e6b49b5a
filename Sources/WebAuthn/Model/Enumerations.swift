/// WebAuthn's string enumerations are open: a value a later spec adds must not break parsing.
/// Each is a `RawRepresentable` string with the known values as static members.
public protocol OpenStringEnum: RawRepresentable<String>, Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// A value from its text; values this library does not know are kept as they are.
    init(rawValue: String)
}

extension OpenStringEnum {
    /// A value from a string literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// Decodes the value from a JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }
    /// Encodes the value as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// WebAuthn's `UserVerificationRequirement`: whether the authenticator must verify the user.
public struct UserVerificationRequirement: OpenStringEnum {
    /// The value as written in JSON.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The user must be verified (UV).
    public static let required: Self = "required"
    /// Verify the user where the authenticator can.
    public static let preferred: Self = "preferred"
    /// Do not verify the user.
    public static let discouraged: Self = "discouraged"
}

/// WebAuthn's `AttestationConveyancePreference`: how much attestation the relying party asks for.
public struct AttestationConveyancePreference: OpenStringEnum {
    /// The value as written in JSON.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No attestation.
    public static let none: Self = "none"
    /// Attestation the client may anonymize.
    public static let indirect: Self = "indirect"
    /// The authenticator's attestation as it made it.
    public static let direct: Self = "direct"
    /// Uniquely identifying attestation, for enterprise deployments.
    public static let enterprise: Self = "enterprise"
}

/// WebAuthn's `AuthenticatorAttachment`: a platform or a roaming authenticator.
public struct AuthenticatorAttachment: OpenStringEnum {
    /// The value as written in JSON.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An authenticator built into the device.
    public static let platform: Self = "platform"
    /// A roaming authenticator (security key, phone over hybrid).
    public static let crossPlatform: Self = "cross-platform"
}

/// WebAuthn's `ResidentKeyRequirement`: whether the credential must be discoverable.
public struct ResidentKeyRequirement: OpenStringEnum {
    /// The value as written in JSON.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The credential must be discoverable.
    public static let required: Self = "required"
    /// A discoverable credential where possible.
    public static let preferred: Self = "preferred"
    /// A server-side credential where possible.
    public static let discouraged: Self = "discouraged"
}

/// WebAuthn's `AuthenticatorTransport`: how the client reaches the authenticator.
public struct AuthenticatorTransport: OpenStringEnum {
    /// The value as written in JSON.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// USB.
    public static let usb: Self = "usb"
    /// NFC.
    public static let nfc: Self = "nfc"
    /// Bluetooth Low Energy.
    public static let ble: Self = "ble"
    /// A smart card.
    public static let smartCard: Self = "smart-card"
    /// Hybrid: a phone reached over the network and Bluetooth.
    public static let hybrid: Self = "hybrid"
    /// Built into the client device.
    public static let `internal`: Self = "internal"
}

/// WebAuthn's `PublicKeyCredentialHint`: which kind of authenticator the client should offer first.
public struct PublicKeyCredentialHint: OpenStringEnum {
    /// The value as written in JSON.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A security key.
    public static let securityKey: Self = "security-key"
    /// The client device's own authenticator.
    public static let clientDevice: Self = "client-device"
    /// A phone, over hybrid.
    public static let hybrid: Self = "hybrid"
}

/// WebAuthn's `PublicKeyCredentialType`; only `public-key` exists.
public struct PublicKeyCredentialType: OpenStringEnum {
    /// The value as written in JSON.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `public-key`.
    public static let publicKey: Self = "public-key"
}
