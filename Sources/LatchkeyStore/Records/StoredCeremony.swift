import Foundation

/// Which WebAuthn ceremony a ``StoredCeremony`` belongs to.
public enum CeremonyKind: String, Sendable, Hashable, Codable, CaseIterable {
    case registration
    case authentication
}

/// A pending ceremony: the challenge the server sent and what it needs back to finish, until the client answers.
///
/// A ceremony is used once: ``LatchkeyStore/consumeCeremony(id:kind:now:)`` removes it as it returns it.
public struct StoredCeremony: Sendable, Hashable, Codable {
    /// The ticket the client echoes back: a random, unguessable, URL-safe string (`A–Z a–z 0–9 - _`).
    public var id: String
    public var kind: CeremonyKind
    /// The challenge bytes sent in the options.
    public var challenge: Data
    /// The user the ceremony is for: an existing ``StoredUser/id``, or nil for a username-less sign-in or the
    /// sign-up of a user that does not exist yet (keep such a user's details in ``payload``).
    public var userID: UUID?
    /// Opaque bytes the server wants back (e.g. the options JSON or the allowed credential ids).
    public var payload: Data
    public var createdAt: Date
    /// After this instant the ceremony can no longer be consumed.
    public var expiresAt: Date

    public init(
        id: String,
        kind: CeremonyKind,
        challenge: Data,
        userID: UUID? = nil,
        payload: Data = Data(),
        createdAt: Date = Date(),
        expiresAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.challenge = challenge
        self.userID = userID
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The longest ticket the store accepts.
    public static let maximumIDLength = 128

    /// Whether the ceremony can still be consumed at `now`.
    public func isLive(at now: Date) -> Bool { now < expiresAt }

    /// Throws ``StoreError/Code/invalidRecord`` unless the ceremony can be stored.
    func validate() throws(StoreError) {
        try Self.validateID(id)
    }

    /// Throws ``StoreError/Code/invalidRecord`` unless `id` is a storable ticket: 1 to ``maximumIDLength``
    /// URL-safe characters (`A–Z a–z 0–9 - _`). Apple web states follow the same rule.
    static func validateID(_ id: String) throws(StoreError) {
        let urlSafe = id.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
        }
        guard (1...maximumIDLength).contains(id.utf8.count), urlSafe else {
            throw StoreError(.invalidRecord, "a ceremony id must be 1 to \(maximumIDLength) URL-safe characters (A-Z a-z 0-9 - _)")
        }
    }

    /// The ceremony a consume removed, or ``StoreError/Code/expired`` if it had expired by `now`.
    func requireLive(at now: Date) throws(StoreError) -> Self {
        guard isLive(at: now) else {
            throw StoreError(.expired, "the \(kind.rawValue) ceremony has expired")
        }
        return self
    }
}
