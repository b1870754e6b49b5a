import Foundation

/// A registered passkey (public key credential) of a user.
public struct StoredCredential: Sendable, Hashable, Codable {
    /// The credential ID bytes; unique across all users.
    public var id: Data
    /// The owner, a ``StoredUser/id``.
    public var userID: UUID
    /// The credential public key as COSE_Key bytes.
    public var publicKey: Data
    /// The COSE algorithm identifier of ``publicKey`` (e.g. -7 for ES256).
    public var algorithm: Int
    /// The last signature counter seen; 0 for authenticators that do not count.
    public var signCount: UInt32
    /// The authenticator's AAGUID (all zero when the authenticator does not tell).
    public var aaguid: UUID
    /// The transports the client reported (`usb`, `nfc`, `ble`, `internal`, `hybrid`, …), in the client's order.
    public var transports: [String]
    /// The BE flag at registration: the credential may be synced (a multi-device passkey).
    public var backupEligible: Bool
    /// The BS flag last seen: the credential is currently backed up.
    public var backedUp: Bool
    /// The attestation statement format the registration used (`none`, `packed`, …).
    public var attestationFormat: String
    /// Whether the user was verified (UV flag) at registration.
    public var userVerified: Bool
    /// Whether the credential is client-side discoverable (credProps `rk`), when the client said.
    public var discoverable: Bool?
    /// The user's own name for the passkey ("Work laptop").
    public var label: String?
    public var createdAt: Date
    /// When the credential last signed in; nil until its first authentication.
    public var lastUsedAt: Date?

    public init(
        id: Data,
        userID: UUID,
        publicKey: Data,
        algorithm: Int,
        signCount: UInt32,
        aaguid: UUID,
        transports: [String] = [],
        backupEligible: Bool,
        backedUp: Bool,
        attestationFormat: String,
        userVerified: Bool,
        discoverable: Bool? = nil,
        label: String? = nil,
        createdAt: Date = Date(),
        lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.aaguid = aaguid
        self.transports = transports
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.attestationFormat = attestationFormat
        self.userVerified = userVerified
        self.discoverable = discoverable
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// The largest credential ID WebAuthn allows.
    public static let maximumIDLength = 1023

    /// Throws ``StoreError/Code/invalidRecord`` unless the credential can be stored.
    func validate() throws(StoreError) {
        guard (1...Self.maximumIDLength).contains(id.count) else {
            throw StoreError(
                .invalidRecord, "a credential id must be 1 to \(Self.maximumIDLength) bytes, not \(id.count)")
        }
        guard !publicKey.isEmpty else { throw StoreError(.invalidRecord, "a credential public key must not be empty") }
    }
}
