import Foundation

/// Display names for authenticators ("iCloud Keychain", "YubiKey 5 NFC"), so a user sees which provider
/// holds each passkey. FIDO metadata is preferred (it names hardware keys and is signed); the built-in table of
/// passkey providers (from the community AAGUID list) covers synced passkeys, which are not in the metadata.
public enum AuthenticatorNames {
    /// The name of the authenticator with `aaguid`: the metadata statement's description when `metadata` has one,
    /// else the built-in table's entry. Nil for the zero AAGUID and for unknown ones.
    public static func name(for aaguid: AAGUID, metadata: MetadataEntry? = nil) -> String? {
        if let description = metadata?.description, !description.isEmpty { return description }
        guard !aaguid.isZero else { return nil }
        return AuthenticatorNameTable.names[aaguid.description]
    }

    /// The name of the authenticator with `aaguid`, looking its metadata up in `source` first.
    public static func name(for aaguid: AAGUID, in source: any AuthenticatorMetadataSource) async -> String? {
        let entry = aaguid.isZero ? nil : await source.entry(for: aaguid)
        return name(for: aaguid, metadata: entry)
    }
}

extension VerifiedRegistration {
    /// The authenticator's display name: its metadata description, or the built-in passkey provider name.
    public var authenticatorName: String? { AuthenticatorNames.name(for: aaguid, metadata: metadata) }
}
