import Foundation

/// One `MetadataBLOBPayloadEntry` of an MDS3 BLOB: which authenticator it describes (``aaguid`` for FIDO2,
/// ``attestationCertificateKeyIdentifiers`` for U2F, ``aaid`` for UAF), its statement and its status history.
public struct MetadataEntry: Sendable, Decodable {
    /// The UAF authenticator's AAID.
    public var aaid: String?
    /// The FIDO2 authenticator's AAGUID.
    public var aaguid: AAGUID?
    /// Lower-case hex subject key identifiers of the attestation certificates (U2F and some FIDO2 keys).
    public var attestationCertificateKeyIdentifiers: [String]
    /// What the vendor says about the model: name, roots, attestation types.
    public var metadataStatement: MetadataStatement?
    /// The certification and security history, as the service lists it.
    public var statusReports: [StatusReport]
    /// When ``statusReports`` last changed.
    public var timeOfLastStatusChange: Date?

    /// An entry made by hand (tests, or metadata from another source).
    public init(
        aaguid: AAGUID?, attestationCertificateKeyIdentifiers: [String] = [], metadataStatement: MetadataStatement?,
        statusReports: [StatusReport]
    ) {
        self.aaguid = aaguid
        self.attestationCertificateKeyIdentifiers = attestationCertificateKeyIdentifiers
        self.metadataStatement = metadataStatement
        self.statusReports = statusReports
    }

    private enum CodingKeys: String, CodingKey {
        case aaid, aaguid, attestationCertificateKeyIdentifiers, metadataStatement, statusReports,
            timeOfLastStatusChange
    }

    /// Decodes the value from JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        aaid = try container.decodeIfPresent(String.self, forKey: .aaid)
        if let text = try container.decodeIfPresent(String.self, forKey: .aaguid) {
            guard let aaguid = AAGUID(string: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .aaguid, in: container, debugDescription: "\"\(text)\" is not an AAGUID")
            }
            self.aaguid = aaguid
        }
        attestationCertificateKeyIdentifiers =
            (try container.decodeIfPresent([String].self, forKey: .attestationCertificateKeyIdentifiers) ?? [])
            .map { $0.lowercased() }
        metadataStatement = try container.decodeIfPresent(MetadataStatement.self, forKey: .metadataStatement)
        statusReports = try container.decodeIfPresent([StatusReport].self, forKey: .statusReports) ?? []
        timeOfLastStatusChange = try MetadataDate.decode(container, .timeOfLastStatusChange)
    }

    /// The authenticator's description, when the entry has a statement.
    public var description: String? { metadataStatement?.description }

    /// The first report in effect at `time` whose status is one of ``AuthenticatorStatus/compromised``.
    public func compromiseReport(at time: Date) -> StatusReport? {
        statusReports.first { $0.isEffective(at: time) && AuthenticatorStatus.compromised.contains($0.status) }
    }

    /// The latest report in effect at `time` whose status is one of `levels`.
    public func certificationReport(at time: Date, levels: Set<AuthenticatorStatus>) -> StatusReport? {
        statusReports
            .filter { $0.isEffective(at: time) && levels.contains($0.status) }
            .max { ($0.effectiveDate ?? .distantPast) < ($1.effectiveDate ?? .distantPast) }
    }

    /// The latest status in effect at `time` (the entry's current status).
    public func currentStatus(at time: Date) -> AuthenticatorStatus? {
        statusReports
            .filter { $0.isEffective(at: time) }
            .max { ($0.effectiveDate ?? .distantPast) < ($1.effectiveDate ?? .distantPast) }?
            .status
    }
}
