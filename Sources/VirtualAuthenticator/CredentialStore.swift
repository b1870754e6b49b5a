/// Where a virtual authenticator keeps its credentials.
///
/// Implementations must be safe to call concurrently. ``InMemoryCredentialStore`` is the default; an
/// encrypted file store or the Keychain can take its place without the authenticator changing.
public protocol CredentialStore: Sendable {
    /// Adds a credential, or replaces the one with the same ID.
    func save(_ credential: CredentialSource) async throws
    /// The credential with this ID, if the store has it.
    func credential(id: [UInt8]) async throws -> CredentialSource?
    /// Every credential for the RP ID, oldest first.
    func credentials(rpID: String) async throws -> [CredentialSource]
    /// Removes the credential with this ID; removing one that is not there is not an error.
    func delete(id: [UInt8]) async throws
}

/// A credential store that lives in memory, for tests and short-lived tools.
public actor InMemoryCredentialStore: CredentialStore {
    private var byID: [[UInt8]: CredentialSource] = [:]

    /// A store holding `credentials`.
    public init(_ credentials: [CredentialSource] = []) {
        for credential in credentials { byID[credential.id] = credential }
    }

    public func save(_ credential: CredentialSource) {
        byID[credential.id] = credential
    }

    public func credential(id: [UInt8]) -> CredentialSource? {
        byID[id]
    }

    public func credentials(rpID: String) -> [CredentialSource] {
        byID.values.filter { $0.rpID == rpID }.sorted(by: Self.creationOrder)
    }

    public func delete(id: [UInt8]) {
        byID[id] = nil
    }

    /// Every credential in the store, oldest first.
    public var all: [CredentialSource] {
        byID.values.sorted(by: Self.creationOrder)
    }

    /// Oldest first; the credential ID breaks ties so the order is stable.
    private static func creationOrder(_ lhs: CredentialSource, _ rhs: CredentialSource) -> Bool {
        if lhs.createdAt != rhs.createdAt { return lhs.createdAt < rhs.createdAt }
        return lhs.id.lexicographicallyPrecedes(rhs.id)
    }
}
