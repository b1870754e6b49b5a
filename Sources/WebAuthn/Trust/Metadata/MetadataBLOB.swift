import Foundation

/// The payload of a verified MDS3 BLOB (FIDO Metadata Service §3.1.6): its serial number, when the next one is
/// due, and the entries, indexed for lookup. Obtain one from ``MetadataBLOBVerifier``.
public struct MetadataBLOB: Sendable {
    /// The BLOB's serial number (`no`); each new BLOB has a larger one.
    public let number: Int
    /// When the service publishes the next BLOB; after it this one is stale.
    public let nextUpdate: Date
    /// The FIDO Alliance's terms of use for the data.
    public let legalHeader: String?
    /// One entry per authenticator model.
    public let entries: [MetadataEntry]
    private let byAAGUID: [AAGUID: Int]
    private let byKeyIdentifier: [String: Int]

    /// A BLOB as given.
    public init(number: Int, nextUpdate: Date, legalHeader: String? = nil, entries: [MetadataEntry]) {
        self.number = number
        self.nextUpdate = nextUpdate
        self.legalHeader = legalHeader
        self.entries = entries
        var byAAGUID: [AAGUID: Int] = [:]
        var byKeyIdentifier: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            if let aaguid = entry.aaguid, byAAGUID[aaguid] == nil { byAAGUID[aaguid] = index }
            for identifier in entry.attestationCertificateKeyIdentifiers where byKeyIdentifier[identifier] == nil {
                byKeyIdentifier[identifier] = index
            }
        }
        self.byAAGUID = byAAGUID
        self.byKeyIdentifier = byKeyIdentifier
    }

    /// Decodes a BLOB's JSON payload as it is, without a signature to check: for payloads verified elsewhere
    /// and for tests. ``MetadataBLOBVerifier`` is the way to read a downloaded BLOB. Fails with `metadata.malformed`.
    public init(payloadJSON payload: [UInt8]) throws(WebAuthnError) {
        struct Payload: Decodable {
            let legalHeader: String?
            let no: Int
            let nextUpdate: String
            let entries: [MetadataEntry]
        }
        let decoded: Payload
        do {
            decoded = try JSONDecoder().decode(Payload.self, from: Data(payload))
        } catch {
            throw WebAuthnError(.metadataMalformed, "metadata BLOB payload is not an MDS3 payload: \(error)")
        }
        guard let nextUpdate = MetadataDate.parse(decoded.nextUpdate) else {
            throw WebAuthnError(
                .metadataMalformed, "metadata BLOB nextUpdate \"\(decoded.nextUpdate)\" is not a YYYY-MM-DD date")
        }
        self.init(
            number: decoded.no, nextUpdate: nextUpdate, legalHeader: decoded.legalHeader, entries: decoded.entries)
    }

    /// The entry for a FIDO2 authenticator.
    public func entry(for aaguid: AAGUID) -> MetadataEntry? {
        byAAGUID[aaguid].map { entries[$0] }
    }

    /// The entry listing an attestation certificate's subject key identifier (U2F authenticators).
    public func entry(forKeyIdentifier identifier: [UInt8]) -> MetadataEntry? {
        byKeyIdentifier[Hex.encode(identifier)].map { entries[$0] }
    }
}
