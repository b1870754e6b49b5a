import CBOR
import Foundation
import X509

extension AttestationTrust {
    /// Looks up the metadata of the authenticator that made a registration: by AAGUID, or, for a zero AAGUID
    /// (U2F), by the subject key identifier of the attestation certificate (`x5c[0]`). Nil without ``metadata``.
    func metadataEntry(for aaguid: AAGUID, statement: CBORMap) async -> MetadataEntry? {
        guard let metadata else { return nil }
        if !aaguid.isZero { return await metadata.entry(for: aaguid) }
        guard let der = statement[text: "x5c"]?.arrayValue?.first?.bytesValue,
            let leaf = try? Certificate(checkedDEREncoded: der)
        else { return nil }
        return await metadata.entry(forKeyIdentifier: Array(SubjectKeyIdentifier(hash: leaf.publicKey).keyIdentifier))
    }

    /// The anchors for `format`, with the attestation roots of the authenticator's metadata statement added.
    func anchors(for format: String, metadata entry: MetadataEntry?) -> [Certificate]? {
        let configured = anchors(for: format)
        guard let roots = entry?.metadataStatement?.rootCertificates, !roots.isEmpty else { return configured }
        return (configured ?? []) + roots
    }
}
