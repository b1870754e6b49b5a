import Foundation

/// The consistency rules of the multi-record calls, checked the same way by every backend before it writes.
enum OutcomeChecks {
    /// The records of ``LatchkeyStore/commitRegistration(_:creating:session:)`` must each be valid and agree on the user.
    static func checkRegistration(_ credential: StoredCredential, creating user: StoredUser?, session: StoredSession?)
        throws(StoreError)
    {
        try credential.validate()
        try checkOwner(credential.userID, of: "the credential", creating: user, session: session)
    }

    /// The records of ``LatchkeyStore/commitPasswordSignUp(_:passwordHash:session:)`` must each be valid, and the
    /// session be the new user's.
    static func checkPasswordSignUp(_ user: StoredUser, passwordHash: String, session: StoredSession)
        throws(StoreError)
    {
        try user.validate()
        try PasswordThrottle.validate(hash: passwordHash)
        try checkSession(session, owner: user.id)
    }

    /// A user created with a record (`what`) must be valid and be its `owner`, and a session must be for `owner`.
    static func checkOwner(_ owner: UUID, of what: String, creating user: StoredUser?, session: StoredSession?)
        throws(StoreError)
    {
        if let user {
            try user.validate()
            guard user.id == owner else {
                throw StoreError(.invalidRecord, "\(what) belongs to another user than the one being created")
            }
        }
        try checkSession(session, owner: owner)
    }

    /// A session issued by a ceremony must be valid and be for the credential's owner.
    static func checkSession(_ session: StoredSession?, owner: UUID) throws(StoreError) {
        guard let session else { return }
        try session.validate()
        guard session.userID == owner else { throw sessionForAnotherUser }
    }

    /// The session given with a sign-in is for another user than the credential's owner.
    static let sessionForAnotherUser = StoreError(
        .invalidRecord, "the session is for another user than the credential's owner")

    /// The credential a sign-in updates does not exist (it was removed while the sign-in was verified).
    static let credentialMissing = StoreError(.notFound, "the credential does not exist")

    /// A compare-and-set of the sign count found another value: another sign-in with the credential committed first.
    static let signCountMoved = StoreError(
        .conflict,
        "the credential's sign count changed while this sign-in was verified (another sign-in with it committed first)"
    )
}
