import CBOR
import Foundation

/// The authenticator data structure (WebAuthn §6.1): RP ID hash, flags, signature counter, and
/// optionally attested credential data and extension outputs.
public struct AuthenticatorData: Sendable, Hashable {
    /// SHA-256 of the RP ID the authenticator used.
    public let rpIDHash: [UInt8]
    /// The flags byte.
    public let flags: AuthenticatorFlags
    /// The signature counter.
    public let signCount: UInt32
    /// The new credential, in a registration (AT set).
    public let attestedCredentialData: AttestedCredentialData?
    /// The authenticator extension outputs (the CBOR map after the attested credential data).
    public let extensions: CBORMap?
    /// The bytes exactly as the authenticator sent them; signatures cover these.
    public let rawValue: [UInt8]

    /// Parses authenticator data, checking that the AT and ED flags agree with what follows the counter.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else {
            throw WebAuthnError(
                .authenticatorDataMalformed, "authenticator data is \(bytes.count) bytes; at least 37 are required")
        }
        rawValue = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = UInt32(bytes[33]) << 24 | UInt32(bytes[34]) << 16 | UInt32(bytes[35]) << 8 | UInt32(bytes[36])
        var offset = 37

        if flags.contains(.attestedCredentialData) {
            let (data, consumed) = try AttestedCredentialData.parse(bytes, from: offset)
            attestedCredentialData = data
            offset += consumed
        } else {
            attestedCredentialData = nil
        }

        if flags.contains(.extensionData) {
            guard offset < bytes.count else {
                throw WebAuthnError(
                    .authenticatorDataMalformed, "the ED flag is set but there are no extension outputs")
            }
            let value: CBORValue
            do {
                value = try CBORDecoder().decode(bytes[offset...])
            } catch {
                throw WebAuthnError.cbor(
                    error, in: "authenticator extension outputs", code: .authenticatorDataMalformed)
            }
            guard let map = value.mapValue else {
                throw WebAuthnError(.authenticatorDataMalformed, "extension outputs are not a CBOR map")
            }
            extensions = map
        } else {
            extensions = nil
            guard offset == bytes.count else {
                throw WebAuthnError(
                    .authenticatorDataMalformed, "\(bytes.count - offset) unexpected bytes after the authenticator data"
                )
            }
        }
    }
}

/// The flags byte of authenticator data.
public struct AuthenticatorFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The value as written in JSON.
    public let rawValue: UInt8
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// UP: the user was present.
    public static let userPresent = AuthenticatorFlags(rawValue: 1 << 0)
    /// UV: the user was verified (biometric, PIN).
    public static let userVerified = AuthenticatorFlags(rawValue: 1 << 2)
    /// BE: the credential may be backed up (a synced passkey).
    public static let backupEligible = AuthenticatorFlags(rawValue: 1 << 3)
    /// BS: the credential is backed up now.
    public static let backedUp = AuthenticatorFlags(rawValue: 1 << 4)
    /// AT: attested credential data follows the counter.
    public static let attestedCredentialData = AuthenticatorFlags(rawValue: 1 << 6)
    /// ED: extension outputs follow.
    public static let extensionData = AuthenticatorFlags(rawValue: 1 << 7)

    /// UP: the user was present.
    public var userPresent: Bool { contains(.userPresent) }
    /// UV: the user was verified.
    public var userVerified: Bool { contains(.userVerified) }
    /// BE: the credential may be backed up (synced).
    public var backupEligible: Bool { contains(.backupEligible) }
    /// BS: the credential is backed up.
    public var backedUp: Bool { contains(.backedUp) }

    /// The flag names that are set, as `inspect` prints them.
    public var names: [String] {
        var names: [String] = []
        if contains(.userPresent) { names.append("UP") }
        if rawValue & 0x02 != 0 { names.append("RFU1") }
        if contains(.userVerified) { names.append("UV") }
        if contains(.backupEligible) { names.append("BE") }
        if contains(.backedUp) { names.append("BS") }
        if rawValue & 0x20 != 0 { names.append("RFU2") }
        if contains(.attestedCredentialData) { names.append("AT") }
        if contains(.extensionData) { names.append("ED") }
        return names
    }

    /// A readable form.
    public var description: String { names.joined(separator: "|") }
}

/// Attested credential data (WebAuthn §6.5.2): AAGUID, credential ID and the credential public key.
public struct AttestedCredentialData: Sendable, Hashable {
    /// The authenticator model's AAGUID.
    public let aaguid: AAGUID
    /// The credential ID.
    public let credentialID: [UInt8]
    /// The COSE_Key exactly as encoded by the authenticator: store these bytes.
    public let publicKeyBytes: [UInt8]
    /// The credential public key.
    public let publicKey: COSEKey

    static func parse(_ bytes: [UInt8], from start: Int) throws(WebAuthnError) -> (AttestedCredentialData, Int) {
        guard bytes.count >= start + 18 else {
            throw WebAuthnError(.authenticatorDataMalformed, "attested credential data is truncated")
        }
        let aaguid = AAGUID(bytes: Array(bytes[start..<start + 16]))
        let idLength = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        guard idLength <= 1023 else {
            throw WebAuthnError(.authenticatorDataMalformed, "credential ID length \(idLength) exceeds 1023 bytes")
        }
        let idStart = start + 18
        guard bytes.count >= idStart + idLength + 1 else {
            throw WebAuthnError(
                .authenticatorDataMalformed, "credential ID or public key runs past the end of the authenticator data")
        }
        let credentialID = Array(bytes[idStart..<idStart + idLength])
        let keyStart = idStart + idLength
        let key: COSEKey
        if let canonical = COSEKey.canonicalES256(prefixOf: bytes[keyStart...]) {
            key = canonical
        } else {
            let keyValue: CBORValue
            let consumed: Int
            do {
                (keyValue, consumed) = try CBORDecoder().decodePrefix(Array(bytes[keyStart...]))
            } catch {
                throw WebAuthnError.cbor(error, in: "credential public key", code: .publicKeyMalformed)
            }
            key = try COSEKey(cbor: keyValue, rawBytes: Array(bytes[keyStart..<keyStart + consumed]))
        }
        let consumed = key.rawBytes.count
        let keyBytes = key.rawBytes
        let data = AttestedCredentialData(
            aaguid: aaguid, credentialID: credentialID, publicKeyBytes: keyBytes, publicKey: key)
        return (data, 18 + idLength + consumed)
    }
}

/// An authenticator model identifier (16 bytes), shown as a lowercase UUID.
public struct AAGUID: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The 16 bytes.
    public let bytes: [UInt8]

    /// An AAGUID from its bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// An AAGUID from its UUID text; nil when it is not one.
    public init?(string: String) {
        guard let bytes = Hex.decode(string.replacingOccurrences(of: "-", with: "")), bytes.count == 16 else {
            return nil
        }
        self.bytes = bytes
    }

    /// The all-zero AAGUID authenticators send when they do not say.
    public static let zero = AAGUID(bytes: [UInt8](repeating: 0, count: 16))
    /// Whether this is the all-zero AAGUID.
    public var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

    /// A readable form.
    public var description: String {
        let hex = Hex.encode(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    /// Decodes the value from JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let value = AAGUID(string: string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID: \(string)")
        }
        self = value
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
