import Foundation

/// The column lists both backends select, in the order ``PostgresStore`` decodes them (``SQLiteStore`` reads accounts,
/// credentials and users by position too, the others by name), and the SQL both run for one rule. Both schemas use
/// these names.
enum StoreColumns {
    /// The Sign in with Apple tables whose rows expire (`expires_at`): web flows' states, notification IDs, app nonces
    /// and identity token uses.
    static let expiringAppleTables = ["apple_web_states", "apple_notifications", "apple_nonces", "apple_token_uses"]
    /// Whether the user of the statement's `users` row can still sign in: with a passkey, an Apple link or a password.
    static let hasWayIn = """
        (EXISTS (SELECT 1 FROM credentials WHERE user_id = users.id) \
        OR EXISTS (SELECT 1 FROM apple_links WHERE user_id = users.id) \
        OR EXISTS (SELECT 1 FROM password_credentials WHERE user_id = users.id))
        """

    static let user = "id, user_handle, name, display_name, created_at"
    static let credential = """
        id, user_id, public_key, algorithm, sign_count, aaguid, transports, backup_eligible, backed_up, \
        attestation_format, user_verified, discoverable, label, created_at, last_used_at
        """
    /// How many columns ``credential`` names.
    static let credentialCount = credential.split(separator: ",").count
    /// An account and its credentials in one statement (``StoredAccount``): a row per credential, oldest first, with
    /// ``credential``'s columns (NULL for an account without credentials) then ``user``'s. `condition` selects the
    /// account (`u` is the users table) and may use one parameter (`?` for SQLite, `$1` for PostgreSQL).
    static func account(where condition: String) -> String {
        func qualified(_ columns: String, _ table: String) -> String {
            columns.split(separator: ",").map { "\(table).\($0.trimmingCharacters(in: .whitespaces))" }.joined(
                separator: ", ")
        }
        return
            "SELECT \(qualified(credential, "c")), \(qualified(user, "u")) FROM users u LEFT JOIN credentials c ON c.user_id = u.id WHERE "
            + condition + " ORDER BY c.created_at, c.id"
    }

    static let accountByName = account(where: "u.name_key = ?")
    static let accountByCredential = account(where: "u.id = (SELECT user_id FROM credentials WHERE id = ?)")
    static let accountByUserID = account(where: "u.id = ?")
    static let session =
        "token_hash, user_id, created_at, expires_at, credential_id, verified_at, last_seen_at, device, network"
    static let appleLink = """
        subject, user_id, client_id, sealed_refresh_token, email, is_private_email, email_enabled, created_at, \
        email_verified, consent_revoked_at
        """
    static let appleWebState = "state, raw_nonce, user_id, created_at, expires_at"
}
