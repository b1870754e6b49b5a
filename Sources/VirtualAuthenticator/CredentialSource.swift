import Foundation
import WebAuthn

/// One credential as the virtual authenticator keeps it, WebAuthn's *public key credential source*: the private key in
/// a portable form and what the authenticator knows about the account. Codable, so stores can write it anywhere
/// (binary fields are base64url strings in JSON).
///
/// The relying party's record of a credential (its public key, sign count and owner) is `LatchkeyStore`'s
/// `StoredCredential`; this is the other side of the same credential, and holds the secret.
public struct CredentialSource: Codable, Sendable, Hashable {
    /// The credential ID.
    public var id: [UInt8]
    /// The relying party the credential is scoped to.
    public var rpID: String
    /// The user handle (`user.id`) given at registration.
    public var userHandle: [UInt8]
    /// `user.name` given at registration (shown by account choosers).
    public var userName: String
    /// `user.displayName` given at registration.
    public var userDisplayName: String
    /// The COSE algorithm the credential signs with.
    public var algorithm: COSEAlgorithm
    /// The private key: PKCS #8 DER for ECDSA and RSA, the 32-byte private key for Ed25519,
    /// the 32-byte seed for ML-DSA.
    public var privateKey: [UInt8]
    /// The signature counter of the last ceremony.
    public var signCount: UInt32
    /// Whether the credential is discoverable (a resident key / passkey).
    public var isDiscoverable: Bool
    /// The BE flag: the credential may be synced.
    public var backupEligible: Bool
    /// The BS flag: the credential is synced.
    public var backedUp: Bool
    /// When the credential was made.
    public var createdAt: Date

    /// A record; normally the authenticator makes these, stores build them when loading.
    public init(
        id: [UInt8], rpID: String, userHandle: [UInt8], userName: String, userDisplayName: String,
        algorithm: COSEAlgorithm, privateKey: [UInt8], signCount: UInt32 = 0, isDiscoverable: Bool,
        backupEligible: Bool, backedUp: Bool, createdAt: Date = Date()
    ) {
        self.id = id
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.algorithm = algorithm
        self.privateKey = privateKey
        self.signCount = signCount
        self.isDiscoverable = isDiscoverable
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, rpID, userHandle, userName, userDisplayName, algorithm, privateKey, signCount
        case isDiscoverable, backupEligible, backedUp, createdAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Base64URLBytes.self, forKey: .id).bytes
        rpID = try container.decode(String.self, forKey: .rpID)
        userHandle = try container.decode(Base64URLBytes.self, forKey: .userHandle).bytes
        userName = try container.decode(String.self, forKey: .userName)
        userDisplayName = try container.decode(String.self, forKey: .userDisplayName)
        algorithm = try container.decode(COSEAlgorithm.self, forKey: .algorithm)
        privateKey = try container.decode(Base64URLBytes.self, forKey: .privateKey).bytes
        signCount = try container.decode(UInt32.self, forKey: .signCount)
        isDiscoverable = try container.decode(Bool.self, forKey: .isDiscoverable)
        backupEligible = try container.decode(Bool.self, forKey: .backupEligible)
        backedUp = try container.decode(Bool.self, forKey: .backedUp)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Base64URLBytes(id), forKey: .id)
        try container.encode(rpID, forKey: .rpID)
        try container.encode(Base64URLBytes(userHandle), forKey: .userHandle)
        try container.encode(userName, forKey: .userName)
        try container.encode(userDisplayName, forKey: .userDisplayName)
        try container.encode(algorithm, forKey: .algorithm)
        try container.encode(Base64URLBytes(privateKey), forKey: .privateKey)
        try container.encode(signCount, forKey: .signCount)
        try container.encode(isDiscoverable, forKey: .isDiscoverable)
        try container.encode(backupEligible, forKey: .backupEligible)
        try container.encode(backedUp, forKey: .backedUp)
        try container.encode(createdAt, forKey: .createdAt)
    }

    /// The descriptor a relying party lists in `allowCredentials` / `excludeCredentials` for this credential.
    public func descriptor(transports: [AuthenticatorTransport]? = nil) -> PublicKeyCredentialDescriptor {
        PublicKeyCredentialDescriptor(id: id, transports: transports)
    }
}
