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

    /// A session; `credentialID` names the passkey it was made with, if any.
    public init(tokenHash: Data, userID: UUID, createdAt: Date = Date(), expiresAt: Date, credentialID: Data? = nil) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.credentialID = credentialID
    }

    /// The length of a SHA-256 digest.
    public static let tokenHashLength = 32

    /// Whether the session is valid at `now`.
    public func isValid(at now: Date) -> Bool { now < expiresAt }

    /// Throws ``StoreError/Code/invalidRecord`` unless the session can be stored.
    func validate() throws(StoreError) {
        guard tokenHash.count == Self.tokenHashLength else {
            throw StoreError(
                .invalidRecord,
                "a session token hash must be \(Self.tokenHashLength) bytes (SHA-256), not \(tokenHash.count)")
        }
    }
}
