import Foundation

/// An MDS3 `AuthenticatorStatus` (FIDO Metadata Service §3.1.4). Values the relying party does not know stay
/// representable, so a BLOB with a newer status still loads.
public struct AuthenticatorStatus: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The status as the BLOB spells it, e.g. `FIDO_CERTIFIED_L1`.
    public let rawValue: String
    /// A value from its text; values this library does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A readable form.
    public var description: String { rawValue }

    /// `NOT_FIDO_CERTIFIED`.
    public static let notFIDOCertified = Self(rawValue: "NOT_FIDO_CERTIFIED")
    /// `FIDO_CERTIFIED`.
    public static let fidoCertified = Self(rawValue: "FIDO_CERTIFIED")
    /// `USER_VERIFICATION_BYPASS`: the authenticator can be used without the user; refused.
    public static let userVerificationBypass = Self(rawValue: "USER_VERIFICATION_BYPASS")
    /// `ATTESTATION_KEY_COMPROMISE`: refused.
    public static let attestationKeyCompromise = Self(rawValue: "ATTESTATION_KEY_COMPROMISE")
    /// `USER_KEY_REMOTE_COMPROMISE`: refused.
    public static let userKeyRemoteCompromise = Self(rawValue: "USER_KEY_REMOTE_COMPROMISE")
    /// `USER_KEY_PHYSICAL_COMPROMISE`: refused.
    public static let userKeyPhysicalCompromise = Self(rawValue: "USER_KEY_PHYSICAL_COMPROMISE")
    /// `UPDATE_AVAILABLE`.
    public static let updateAvailable = Self(rawValue: "UPDATE_AVAILABLE")
    /// `REVOKED`: refused.
    public static let revoked = Self(rawValue: "REVOKED")
    /// `SELF_ASSERTION_SUBMITTED`.
    public static let selfAssertionSubmitted = Self(rawValue: "SELF_ASSERTION_SUBMITTED")
    /// `FIDO_CERTIFIED_L1`.
    public static let fidoCertifiedL1 = Self(rawValue: "FIDO_CERTIFIED_L1")
    /// `FIDO_CERTIFIED_L1plus`.
    public static let fidoCertifiedL1Plus = Self(rawValue: "FIDO_CERTIFIED_L1plus")
    /// `FIDO_CERTIFIED_L2`.
    public static let fidoCertifiedL2 = Self(rawValue: "FIDO_CERTIFIED_L2")
    /// `FIDO_CERTIFIED_L2plus`.
    public static let fidoCertifiedL2Plus = Self(rawValue: "FIDO_CERTIFIED_L2plus")
    /// `FIDO_CERTIFIED_L3`.
    public static let fidoCertifiedL3 = Self(rawValue: "FIDO_CERTIFIED_L3")
    /// `FIDO_CERTIFIED_L3plus`.
    public static let fidoCertifiedL3Plus = Self(rawValue: "FIDO_CERTIFIED_L3plus")

    /// Statuses that mean the authenticator must not be trusted: registrations from it are refused.
    public static let compromised: Set<Self> = [
        .revoked, .userVerificationBypass, .attestationKeyCompromise, .userKeyRemoteCompromise,
        .userKeyPhysicalCompromise,
    ]

    /// Every FIDO certification level.
    public static let certificationLevels: Set<Self> = [
        .fidoCertified, .fidoCertifiedL1, .fidoCertifiedL1Plus, .fidoCertifiedL2, .fidoCertifiedL2Plus,
        .fidoCertifiedL3, .fidoCertifiedL3Plus,
    ]
}

/// One `StatusReport` of a metadata entry.
public struct StatusReport: Sendable, Hashable, Decodable {
    /// What the report says.
    public var status: AuthenticatorStatus
    /// When the status took effect (midnight UTC of the reported date).
    public var effectiveDate: Date?
    /// The authenticator version the report applies to, when it names one.
    public var authenticatorVersion: UInt32?
    /// For `ATTESTATION_KEY_COMPROMISE`: the compromised attestation certificate (base64 DER), when given.
    public var certificate: String?
    /// Where the report is explained.
    public var url: String?
    /// The certified product's name, for certification reports.
    public var certificationDescriptor: String?
    /// The FIDO certificate number, for certification reports.
    public var certificateNumber: String?

    /// A report made by hand (tests, or metadata from another source).
    public init(status: AuthenticatorStatus, effectiveDate: Date? = nil) {
        self.status = status
        self.effectiveDate = effectiveDate
    }

    private enum CodingKeys: String, CodingKey {
        case status, effectiveDate, authenticatorVersion, certificate, url, certificationDescriptor, certificateNumber
    }

    /// Decodes the value from JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(AuthenticatorStatus.self, forKey: .status)
        effectiveDate = try MetadataDate.decode(container, .effectiveDate)
        authenticatorVersion = try container.decodeIfPresent(UInt32.self, forKey: .authenticatorVersion)
        certificate = try container.decodeIfPresent(String.self, forKey: .certificate)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        certificationDescriptor = try container.decodeIfPresent(String.self, forKey: .certificationDescriptor)
        certificateNumber = try container.decodeIfPresent(String.self, forKey: .certificateNumber)
    }

    /// Whether the report is in effect at `time` (reports without a date always are).
    public func isEffective(at time: Date) -> Bool {
        effectiveDate.map { $0 <= time } ?? true
    }
}
