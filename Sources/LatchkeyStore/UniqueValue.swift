/// The values the schema keeps unique, named the way each backend reports a violation.
enum UniqueValue: CaseIterable {
    case userID, userHandle, userName, credentialID, sessionTokenHash, appleSubject, appleWebState, appleNonce
    case verifiedEmail

    /// `table.column` as SQLite names it in "UNIQUE constraint failed: …".
    var sqliteColumn: String { names.sqliteColumn }

    /// The constraint name the PostgreSQL schema gives it.
    var postgresConstraint: String { names.postgresConstraint }

    /// The ``StoreError/Code/conflict`` this violation becomes.
    var conflict: StoreError { StoreError(.conflict, names.message) }

    /// The value's ``sqliteColumn``, ``postgresConstraint`` and ``conflict`` message.
    private var names: (sqliteColumn: String, postgresConstraint: String, message: String) {
        switch self {
        case .userID: ("users.id", "users_pkey", "a user with this id exists")
        case .userHandle: ("users.user_handle", "users_user_handle_key", "a user with this user handle exists")
        case .userName: ("users.name_key", "users_name_key_key", "the user name is taken")
        case .credentialID: ("credentials.id", "credentials_pkey", "a credential with this id is already registered")
        case .sessionTokenHash: ("sessions.token_hash", "sessions_pkey", "a session with this token exists")
        case .appleSubject: ("apple_links.subject", "apple_links_pkey", "this Apple ID is linked to a user already")
        case .appleWebState:
            ("apple_web_states.state", "apple_web_states_pkey", "an Apple web state with this value exists")
        case .appleNonce: ("apple_nonces.nonce", "apple_nonces_pkey", "an Apple nonce with this value exists")
        case .verifiedEmail:
            ("emails.address_key", "emails_verified_address", "another account has verified this email address")
        }
    }

    /// The conflict for an unnamed or unknown unique violation.
    static let unknownConflict = StoreError(.conflict, "a unique value is taken")

    /// The error for a reference to a user that does not exist.
    static let missingUser = StoreError(.notFound, "the user does not exist")
}
