import Foundation
import X509

/// Verifies an MDS3 BLOB (FIDO Metadata Service §3.2): a JWS whose `x5c` header chains to the FIDO Alliance's
/// root. Checks the signature with the leaf, the chain at the verification time (and against the supplied CRLs),
/// then `nextUpdate` and, when given, that `no` is newer than the BLOB already held.
///
/// ```swift
/// let blob = try await MetadataBLOBVerifier().verify(Array(data))
/// let entry = blob.entry(for: registration.aaguid)
/// ```
public struct MetadataBLOBVerifier: Sendable {
    /// The roots the BLOB's chain must lead to.
    public var trustRoots: [Certificate]
    /// CRLs for the chain's certificates, when the caller fetched them (from the URLs in the certificates'
    /// CRL distribution points). Without them revocation is not checked.
    public var revocationLists: [CertificateRevocationList]

    /// - Parameters:
    ///   - trustRoots: the roots to accept; by default ``fidoRoots`` (the production service's root).
    ///   - revocationLists: CRLs for the chain; none by default.
    public init(
        trustRoots: [Certificate] = MetadataBLOBVerifier.fidoRoots, revocationLists: [CertificateRevocationList] = []
    ) {
        self.trustRoots = trustRoots
        self.revocationLists = revocationLists
    }

    /// The root of the production FIDO Metadata Service (`mds3.fidoalliance.org`): GlobalSign Root CA - R3.
    public static let fidoRoots: [Certificate] = [BuiltInRoots.globalSignRootR3].compactMap {
        try? Certificate(pemEncoded: $0)
    }

    /// Verifies `blob` (the JWS text as downloaded) at `time`.
    ///
    /// - Parameters:
    ///   - blob: the BLOB's JWS text, as downloaded.
    ///   - time: the moment at which the signing chain and `nextUpdate` are judged; now by default.
    ///   - previousNumber: the `no` of the BLOB already held; a BLOB that is not newer fails `metadata.stale`.
    /// - Throws: `metadata.malformed`, `metadata.badSignature`, `metadata.untrustedChain`, `metadata.revoked`,
    ///   `metadata.stale`, or `certificate.malformed` / `unsupportedAlgorithm` for a header it cannot use.
    public func verify(_ blob: [UInt8], at time: Date = Date(), previousNumber: Int? = nil) async throws(WebAuthnError)
        -> MetadataBLOB
    {
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }
        // Files end in a newline.
        let text = blob.drop(while: isWhitespace).reversed().drop(while: isWhitespace).reversed()
        let jws = try CertificateJWS(compact: Array(text), name: "metadata BLOB", malformed: .metadataMalformed)
        guard (try? jws.isSignedByLeaf()) == true else {
            throw WebAuthnError(
                .metadataBadSignature, "metadata BLOB signature does not verify with its x5c leaf (\(jws.leaf.subject))"
            )
        }

        let status: TrustStatus
        do throws(WebAuthnError) {
            status = try await CertificatePath(chain: jws.certificates, format: "metadata BLOB")
                .evaluate(
                    at: time, anchors: trustRoots, extraCriticalExtensions: [])
        } catch {
            throw WebAuthnError(.metadataUntrustedChain, "metadata BLOB chain is not trusted: \(error.message)")
        }
        guard case .trusted(let anchor) = status else {
            let reason = if case .untrusted(let reason) = status { reason } else { "no trust root is configured" }
            throw WebAuthnError(.metadataUntrustedChain, "metadata BLOB chain is not trusted: \(reason)")
        }
        try RevocationCheck(revocationLists: revocationLists).verify(jws.certificates, anchor: anchor, at: time)

        let payload = try MetadataBLOB(payloadJSON: jws.payload)
        if time > payload.nextUpdate {
            throw WebAuthnError(
                .metadataStale, "metadata BLOB no. \(payload.number) is stale: its nextUpdate was \(payload.nextUpdate)"
            )
        }
        if let previousNumber, payload.number <= previousNumber {
            throw WebAuthnError(
                .metadataStale, "metadata BLOB no. \(payload.number) is not newer than the loaded no. \(previousNumber)"
            )
        }
        return payload
    }
}
