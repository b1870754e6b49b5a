import Foundation

/// The column lists both backends select, in the order ``PostgresStore`` decodes them (``SQLiteStore`` reads credentials
/// and ceremonies by position too, the others by name).
/// Both schemas use these names.
enum StoreColumns {
    static let user = "id, user_handle, name, display_name, created_at"
    static let credential = """
        id, user_id, public_key, algorithm, sign_count, aaguid, transports, backup_eligible, backed_up, \
        attestation_format, user_verified, discoverable, label, created_at, last_used_at
        """
    static let ceremony = "id, kind, challenge, user_id, payload, created_at, expires_at"
    /// How many columns ``credential`` names.
    static let credentialCount = credential.split(separator: ",").count
    /// A credential by ID with its owner, in one statement: ``credential``'s columns, then ``user``'s.
    static let credentialWithOwner = {
        func qualified(_ columns: String, _ table: String) -> String {
            columns.split(separator: ",").map { "\(table).\($0.trimmingCharacters(in: .whitespaces))" }.joined(separator: ", ")
        }
        return "SELECT \(qualified(credential, "c")), \(qualified(user, "u")) FROM credentials c JOIN users u ON u.id = c.user_id WHERE c.id = ?"
    }()
    static let session = "token_hash, user_id, created_at, expires_at, credential_id"
    static let appleLink = """
        subject, user_id, client_id, sealed_refresh_token, email, is_private_email, email_enabled, created_at, \
        email_verified, consent_revoked_at
        """
    static let appleWebState = "state, raw_nonce, user_id, created_at, expires_at"
}
