import Foundation

/// A signed-in session. The store keeps only the SHA-256 hash of the opaque token the client holds, so a
/// leaked database does not leak usable tokens: hash the presented token and look it up with
/// ``LatchkeyStore/session(tokenHash:now:)``.
public struct StoredSession: Sendable, Hashable, Codable {
    /// SHA-256 of the session token: exactly 32 bytes, unique.
    public var tokenHash: Data
    public var userID: UUID
    public var createdAt: Date
    /// After this instant the session is no longer valid.
    public var expiresAt: Date
    /// The passkey the session was signed in (or signed up) with, or nil for other ways in (password, Apple).
    /// Deleting that credential ends the session: the stores delete it with the credential.
    public var credentialID: Data?
    /// When the user last proved who they are for this session (a passkey with user verification, the password, Sign in
    /// with Apple); nil when it began without (a passkey without user verification). Sensitive changes need it recent.
    public var verifiedAt: Date?
    /// When the session was last seen in a request, to the minute the server records it (nil: not since created).
    public var lastSeenAt: Date?
    /// A label for the device, from its user agent or the app's name (at most ``maximumDeviceLength`` characters).
    public var device: String?
    /// The client's address, coarsened to its network (an IPv4 /24 or IPv6 /48), never the full address.
    public var network: String?

    /// A session; `credentialID` names the passkey it was made with, if any.
    public init(
        tokenHash: Data, userID: UUID, createdAt: Date = Date(), expiresAt: Date, credentialID: Data? = nil,
        verifiedAt: Date? = nil, lastSeenAt: Date? = nil, device: String? = nil, network: String? = nil
    ) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.credentialID = credentialID
        self.verifiedAt = verifiedAt
        self.lastSeenAt = lastSeenAt
        self.device = device
        self.network = network
    }

    /// The most live sessions one account keeps: a new one ends the oldest beyond this (both schemas' trigger).
    public static let maximumPerAccount = 50
    /// The longest ``device`` label.
    public static let maximumDeviceLength = 100

    /// The session's name in the API (`GET /v1/sessions`, `DELETE /v1/sessions/{id}`): the first 12 bytes of the token
    /// hash, base64url. It names the session without being a way to use it (the token is not derivable from it).
    public var publicID: String {
        Data(tokenHash.prefix(12)).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    /// The length of a SHA-256 digest.
    public static let tokenHashLength = 32

    /// Throws ``StoreError/Code/invalidRecord`` unless the session can be stored.
    func validate() throws(StoreError) {
        guard tokenHash.count == Self.tokenHashLength else {
            throw StoreError(
                .invalidRecord,
                "a session token hash must be \(Self.tokenHashLength) bytes (SHA-256), not \(tokenHash.count)")
        }
        if let device, device.count > Self.maximumDeviceLength {
            throw StoreError(
                .invalidRecord, "a session's device label is at most \(Self.maximumDeviceLength) characters")
        }
    }
}
