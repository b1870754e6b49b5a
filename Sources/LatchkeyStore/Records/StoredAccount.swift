import Foundation

/// An account with its credentials, read together: what a sign-in needs (the allow list of its options; the signing
/// credential, its owner and the owner's other credentials for the signals of its answer) in one read.
public struct StoredAccount: Sendable, Hashable {
    /// The account.
    public var user: StoredUser
    /// Its credentials, oldest first (as ``LatchkeyStore/credentials(ofUser:)`` lists them).
    public var credentials: [StoredCredential]

    /// An account and its credentials.
    ///
    /// - Parameters:
    ///   - user: the account.
    ///   - credentials: its credentials, oldest first.
    public init(user: StoredUser, credentials: [StoredCredential]) {
        self.user = user
        self.credentials = credentials
    }

    /// The credential with this credential ID among ``credentials``, or nil.
    ///
    /// - Parameter id: a credential ID.
    public func credential(id: Data) -> StoredCredential? {
        credentials.first { $0.id == id }
    }
}
