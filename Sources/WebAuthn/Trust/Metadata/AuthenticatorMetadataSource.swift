import Foundation

/// Where the registration ceremony finds an authenticator's metadata: a verified ``MetadataBLOB``, or a
/// ``MetadataService`` that keeps one current. Set it as ``AttestationTrust/metadata``.
public protocol AuthenticatorMetadataSource: Sendable {
    /// The entry for a FIDO2 authenticator's AAGUID.
    func entry(for aaguid: AAGUID) async -> MetadataEntry?
    /// The entry listing an attestation certificate's subject key identifier (U2F authenticators, zero AAGUID).
    func entry(forKeyIdentifier identifier: [UInt8]) async -> MetadataEntry?
}

extension MetadataBLOB: AuthenticatorMetadataSource {}
