import Foundation

/// One passkey of the signed-in user, as `GET /v1/me/passkeys` lists it.
public struct PasskeySummary: Codable, Hashable, Sendable {
    /// The credential id, base64url; use it in `/v1/me/passkeys/{id}`.
    public var id: String
    /// The user's label for the passkey, if they gave one.
    public var name: String?
    public var createdAt: Date
    /// When the passkey last signed in; nil until it has.
    public var lastUsedAt: Date?
    /// The transports the client reported (`internal`, `hybrid`, `usb`, …).
    public var transports: [String]
    /// Whether the passkey is currently backed up (synced).
    public var backedUp: Bool
    /// Whether the passkey may be backed up (a multi-device passkey).
    public var backupEligible: Bool
    /// The authenticator model's AAGUID (all zeros when the authenticator does not say).
    public var aaguid: String
    /// `multi-device` (a synced passkey) or `single-device`.
    public var deviceType: String
    /// The authenticator's name ("iCloud Keychain", "YubiKey 5 NFC") from FIDO metadata or the built-in list of
    /// passkey providers; nil when the AAGUID is unknown or zero.
    public var authenticatorName: String?
    /// After a rename: the user's accepted credentials and names, for the WebAuthn signal API.
    public var signals: CredentialSignals?

    public init(
        id: String, name: String?, createdAt: Date, lastUsedAt: Date?, transports: [String],
        backedUp: Bool, backupEligible: Bool, aaguid: String, deviceType: String, authenticatorName: String? = nil
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.transports = transports
        self.backedUp = backedUp
        self.backupEligible = backupEligible
        self.aaguid = aaguid
        self.deviceType = deviceType
        self.authenticatorName = authenticatorName
    }
}

/// The body of `GET /v1/me/passkeys`: `{"passkeys":[…]}`, oldest first.
public struct PasskeyList: Codable, Hashable, Sendable {
    public var passkeys: [PasskeySummary]
    /// The user's accepted credentials and names, for the WebAuthn signal API.
    public var signals: CredentialSignals?

    public init(passkeys: [PasskeySummary], signals: CredentialSignals? = nil) {
        self.passkeys = passkeys
        self.signals = signals
    }
}

/// The body of `PATCH /v1/me/passkeys/{id}`: the new label, or null to clear it.
public struct RenamePasskeyRequest: Codable, Hashable, Sendable {
    public var name: String?

    public init(name: String?) {
        self.name = name
    }
}
