import Foundation
import X509

/// The parts of an MDS3 `MetadataStatement` (FIDO Metadata Statement §4) a relying party uses: what the
/// authenticator is called, which roots its attestations chain to, and how it attests. Other fields are ignored.
public struct MetadataStatement: Sendable, Decodable {
    /// The authenticator's name, e.g. `YubiKey 5 Series with NFC`.
    public var description: String
    /// A `data:` URL of the authenticator's icon, when the vendor gave one.
    public var icon: String?
    /// The identifiers the statement repeats from its entry (AAGUID, AAID, key identifiers).
    public var aaguid: String?
    /// The FIDO UAF authenticator ID, for UAF authenticators.
    public var aaid: String?
    /// The key identifiers of U2F attestation certificates, hex.
    public var attestationCertificateKeyIdentifiers: [String]?
    /// The firmware version the statement describes.
    public var authenticatorVersion: UInt32?
    /// `fido2`, `u2f` or `uaf`.
    public var protocolFamily: String?
    /// The metadata statement schema version (3 for MDS3).
    public var schema: Int?
    /// `basic_full`, `basic_surrogate`, `attca`, `anonca`, `none`.
    public var attestationTypes: [String]?
    /// The attestation roots, standard base64 DER, as sent. Setting them parses them into ``rootCertificates``.
    public var attestationRootCertificates: [String] {
        didSet { rootCertificates = Self.parseRoots(attestationRootCertificates) }
    }
    /// The attestation roots that parse as X.509 certificates (an unreadable one anchors nothing), parsed once
    /// when the statement is decoded or its roots are set, not on every registration.
    public private(set) var rootCertificates: [Certificate]

    /// A statement made by hand (tests, or metadata from another source).
    public init(description: String, attestationRootCertificates: [String] = []) {
        self.description = description
        self.attestationRootCertificates = attestationRootCertificates
        rootCertificates = Self.parseRoots(attestationRootCertificates)
    }

    private enum CodingKeys: String, CodingKey {
        case description, icon, aaguid, aaid, attestationCertificateKeyIdentifiers, authenticatorVersion
        case protocolFamily, schema, attestationTypes, attestationRootCertificates
    }

    /// Decodes the value from JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        description = try container.decode(String.self, forKey: .description)
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        aaguid = try container.decodeIfPresent(String.self, forKey: .aaguid)
        aaid = try container.decodeIfPresent(String.self, forKey: .aaid)
        attestationCertificateKeyIdentifiers = try container.decodeIfPresent(
            [String].self, forKey: .attestationCertificateKeyIdentifiers)
        authenticatorVersion = try container.decodeIfPresent(UInt32.self, forKey: .authenticatorVersion)
        protocolFamily = try container.decodeIfPresent(String.self, forKey: .protocolFamily)
        schema = try container.decodeIfPresent(Int.self, forKey: .schema)
        attestationTypes = try container.decodeIfPresent([String].self, forKey: .attestationTypes)
        attestationRootCertificates =
            try container.decodeIfPresent([String].self, forKey: .attestationRootCertificates) ?? []
        rootCertificates = Self.parseRoots(attestationRootCertificates)
    }

    private static func parseRoots(_ encoded: [String]) -> [Certificate] {
        encoded.compactMap { text in Base64URL.decode(text).flatMap { try? Certificate(checkedDEREncoded: $0) } }
    }
}
