/// The values the schema keeps unique, named the way each backend reports a violation.
enum UniqueValue: CaseIterable {
    case userID, userHandle, userName, credentialID, sessionTokenHash, appleSubject, appleWebState, appleNonce
    case verifiedEmail

    /// `table.column` as SQLite names it in "UNIQUE constraint failed: …".
    var sqliteColumn: String {
        switch self {
        case .userID: "users.id"
        case .userHandle: "users.user_handle"
        case .userName: "users.name_key"
        case .credentialID: "credentials.id"
        case .sessionTokenHash: "sessions.token_hash"
        case .appleSubject: "apple_links.subject"
        case .appleWebState: "apple_web_states.state"
        case .appleNonce: "apple_nonces.nonce"
        case .verifiedEmail: "emails.address_key"
        }
    }

    /// The constraint name the PostgreSQL schema gives it.
    var postgresConstraint: String {
        switch self {
        case .userID: "users_pkey"
        case .userHandle: "users_user_handle_key"
        case .userName: "users_name_key_key"
        case .credentialID: "credentials_pkey"
        case .sessionTokenHash: "sessions_pkey"
        case .appleSubject: "apple_links_pkey"
        case .appleWebState: "apple_web_states_pkey"
        case .appleNonce: "apple_nonces_pkey"
        case .verifiedEmail: "emails_verified_address"
        }
    }

    /// The ``StoreError/Code/conflict`` this violation becomes.
    var conflict: StoreError {
        switch self {
        case .userID: StoreError(.conflict, "a user with this id exists")
        case .userHandle: StoreError(.conflict, "a user with this user handle exists")
        case .userName: StoreError(.conflict, "the user name is taken")
        case .credentialID: StoreError(.conflict, "a credential with this id is already registered")
        case .sessionTokenHash: StoreError(.conflict, "a session with this token exists")
        case .appleSubject: StoreError(.conflict, "this Apple ID is linked to a user already")
        case .appleWebState: StoreError(.conflict, "an Apple web state with this value exists")
        case .appleNonce: StoreError(.conflict, "an Apple nonce with this value exists")
        case .verifiedEmail: StoreError(.conflict, "another account has verified this email address")
        }
    }

    /// The conflict for an unnamed or unknown unique violation.
    static let unknownConflict = StoreError(.conflict, "a unique value is taken")

    /// The error for a reference to a user that does not exist.
    static let missingUser = StoreError(.notFound, "the user does not exist")
}
