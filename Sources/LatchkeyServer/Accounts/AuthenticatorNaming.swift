import Foundation
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// Names the authenticator behind each passkey the API lists: the FIDO metadata statement's description when
/// the server has metadata and it knows the AAGUID, else the built-in table of passkey providers
/// (``AuthenticatorNames``).
struct AuthenticatorNaming: Sendable {
    /// The server's metadata, if configured.
    let metadata: MetadataService?

    /// The display name for `aaguid`, or nil when it is zero or unknown.
    func name(for aaguid: UUID) async -> String? {
        let aaguid = AAGUID(aaguid)
        if let metadata { return await AuthenticatorNames.name(for: aaguid, in: metadata) }
        return AuthenticatorNames.name(for: aaguid)
    }

    /// `credential` as the passkey list shows it.
    func summary(of credential: StoredCredential) async -> PasskeySummary {
        PasskeySummary(
            id: Base64URL.encode(Array(credential.id)), name: credential.label, createdAt: credential.createdAt,
            lastUsedAt: credential.lastUsedAt, transports: credential.transports, backedUp: credential.backedUp,
            backupEligible: credential.backupEligible, aaguid: credential.aaguid.uuidString.lowercased(),
            deviceType: credential.backupEligible ? "multi-device" : "single-device",
            authenticatorName: await name(for: credential.aaguid)
        )
    }

    /// `credentials` as the passkey list shows them, in their order.
    func summaries(of credentials: [StoredCredential]) async -> [PasskeySummary] {
        var summaries: [PasskeySummary] = []
        for credential in credentials { summaries.append(await summary(of: credential)) }
        return summaries
    }
}
