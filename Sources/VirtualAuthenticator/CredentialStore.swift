/// Where a virtual authenticator keeps its credentials.
///
/// Implementations must be safe to call concurrently. ``InMemoryCredentialStore`` is the default; an
/// encrypted file store or the Keychain can take its place without the authenticator changing.
public protocol CredentialStore: Sendable {
    /// Adds a credential, or replaces the one with the same ID.
    func save(_ credential: StoredCredential) async throws
    /// The credential with this ID, if the store has it.
    func credential(id: [UInt8]) async throws -> StoredCredential?
    /// Every credential for the RP ID, oldest first.
    func credentials(rpID: String) async throws -> [StoredCredential]
    /// Removes the credential with this ID; removing one that is not there is not an error.
    func delete(id: [UInt8]) async throws
}

/// A credential store that lives in memory, for tests and short-lived tools.
public actor InMemoryCredentialStore: CredentialStore {
    private var byID: [[UInt8]: StoredCredential] = [:]

    /// A store holding `credentials`.
    public init(_ credentials: [StoredCredential] = []) {
        for credential in credentials { byID[credential.id] = credential }
    }

    public func save(_ credential: StoredCredential) {
        byID[credential.id] = credential
    }

    public func credential(id: [UInt8]) -> StoredCredential? {
        byID[id]
    }

    public func credentials(rpID: String) -> [StoredCredential] {
        byID.values.filter { $0.rpID == rpID }.sorted(by: Self.creationOrder)
    }

    public func delete(id: [UInt8]) {
        byID[id] = nil
    }

    /// Every credential in the store, oldest first.
    public var all: [StoredCredential] {
        byID.values.sorted(by: Self.creationOrder)
    }

    /// Oldest first; the credential ID breaks ties so the order is stable.
    private static func creationOrder(_ lhs: StoredCredential, _ rhs: StoredCredential) -> Bool {
        if lhs.createdAt != rhs.createdAt { return lhs.createdAt < rhs.createdAt }
        return lhs.id.lexicographicallyPrecedes(rhs.id)
    }
}
