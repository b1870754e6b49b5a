import Foundation
import GRDB

/// The versioned SQLite schema. GRDB's `DatabaseMigrator` records applied migrations in `grdb_migrations`, so
/// opening a database again applies only what is new. Never edit a shipped migration: add the next one.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Each migration's SQL, and what it must also do in Swift.
        let migrations: [(identifier: String, sql: String, then: (@Sendable (Database) throws -> Void)?)] = [
            ("v1: users, credentials, ceremonies, sessions", v1, nil),
            ("v2: Apple links, notification ids, Apple web states", v2, nil),
            ("v3: password credentials and throttles", v3Passwords, nil),
            ("v4: Apple app nonces, Apple identity token uses", v4Apple, nil),
            ("v5: hardening", v5Hardening, fillNameSkeletons),
            ("v6: spent tickets instead of stored ceremonies", v6SpentTickets, nil),
            ("v7: credentials indexed in account order", v7AccountOrder, nil),
            ("v8: fewer index writes per sign-in", v8FewerIndexWrites, nil),
            ("v9: sessions as devices", v9SessionsAsDevices, nil),
            ("v10: recovery codes and links", v10RecoveryCodes, nil),
            ("v11: email addresses and the outbox", v11Email, nil),
            ("v12: signing keys and refresh tokens", v12Tokens, nil),
            ("v13: the audit log", v13Audit, nil),
            ("v14: webhook deliveries", v14Webhooks, nil),
            ("v15: refresh tokens sealed, not stored", v15SealedRefreshTokens, nil),
            ("v16: sessions keyed by their token, indexed by account and age", v16SessionsByAccountAge, nil),
        ]
        for migration in migrations {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
                try migration.then?(db)
            }
        }
        return migrator
    }

    /// v5's second step: existing accounts get their confusables skeleton (the table is in Swift, not SQL).
    private static func fillNameSkeletons(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM users") {
            let id: UUID = row["id"]
            let name: String = row["name"]
            try db.execute(
                sql: "UPDATE users SET name_skeleton = ? WHERE id = ?", arguments: [NameSkeleton.of(name), id])
        }
    }

    /// Applies what is new. Servers opening a new file at the same moment race: GRDB decides what to apply before it
    /// takes the write lock, so the loser's migration fails on tables the winner just made. Trying again then finds the
    /// migrations recorded and does nothing.
    ///
    /// Throws ``StoreError/Code/unavailable``, changing nothing, when a newer Latchkey has migrated the file: this
    /// version would open it but could not use it (migration v8 changed the keys this version's statements name).
    static func migrate(_ writer: DatabaseQueue) throws {
        // The check reads the file too, so it meets the same races; its own refusal is final.
        try retryingStartupRaces(when: { !($0 is StoreError) }) {
            let unknown = try writer.read { db in try migrator.appliedIdentifiers(db).subtracting(migrator.migrations) }
            guard unknown.isEmpty else { throw StoreError.newerSchema(unknown.sorted()) }
            try migrator.migrate(writer)
        }
    }

    /// Opens a connection. Several servers opening a new file at once can meet SQLite's race in setting up the WAL
    /// (`SQLITE_PROTOCOL`, "locking protocol", seen in CI with four concurrent first opens on a loaded machine) or a
    /// lock held past the busy timeout while another migrates.
    static func open(path: String, configuration: Configuration) throws -> DatabaseQueue {
        try retryingStartupRaces(when: { error in
            guard let error = error as? DatabaseError else { return false }
            return [.SQLITE_PROTOCOL, .SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode)
        }) {
            try DatabaseQueue(path: path, configuration: configuration)
        }
    }

    /// Runs `body` up to `attempts` times while it fails with an error `isRace` accepts, a little longer apart each
    /// time, so that the racing servers' next tries do not meet again at once.
    private static func retryingStartupRaces<Result>(
        attempts: Int = 5, when isRace: (any Error) -> Bool, _ body: () throws -> Result
    ) throws -> Result {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch  where attempt < attempts && isRace(error) {
                Thread.sleep(forTimeInterval: 0.02 * Double(attempt))
                attempt += 1
            }
        }
    }

    /// Tables are STRICT; UUIDs are 16-byte blobs, dates GRDB's UTC `yyyy-MM-dd HH:mm:ss.SSS` text (which sorts
    /// as time does), booleans 0/1 and transports a JSON array of strings.
    private static let v1 = """
        CREATE TABLE users (
            id BLOB NOT NULL PRIMARY KEY,
            user_handle BLOB NOT NULL UNIQUE CHECK (length(user_handle) BETWEEN 1 AND 64),
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE CHECK (name_key <> ''),
            display_name TEXT NOT NULL,
            created_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE credentials (
            id BLOB NOT NULL PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 1023),
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            public_key BLOB NOT NULL,
            algorithm INTEGER NOT NULL,
            sign_count INTEGER NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
            aaguid BLOB NOT NULL,
            transports TEXT NOT NULL,
            backup_eligible INTEGER NOT NULL,
            backed_up INTEGER NOT NULL,
            attestation_format TEXT NOT NULL,
            user_verified INTEGER NOT NULL,
            discoverable INTEGER,
            label TEXT,
            created_at TEXT NOT NULL,
            last_used_at TEXT
        ) STRICT;
        CREATE INDEX credentials_user_id ON credentials(user_id, created_at);

        CREATE TABLE ceremonies (
            id TEXT NOT NULL PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('registration', 'authentication')),
            challenge BLOB NOT NULL,
            user_id BLOB REFERENCES users(id) ON DELETE CASCADE,
            payload BLOB NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX ceremonies_user_id ON ceremonies(user_id);
        CREATE INDEX ceremonies_expires_at ON ceremonies(expires_at);

        CREATE TABLE sessions (
            token_hash BLOB NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sessions_user_id ON sessions(user_id);
        CREATE INDEX sessions_expires_at ON sessions(expires_at);
        """

    /// Sign in with Apple: linked Apple IDs (the refresh token sealed by the server), handled notification `jti`s
    /// and pending web flows.
    private static let v2 = """
        CREATE TABLE apple_links (
            subject TEXT NOT NULL PRIMARY KEY CHECK (length(subject) BETWEEN 1 AND 255),
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            client_id TEXT NOT NULL CHECK (length(client_id) BETWEEN 1 AND 255),
            sealed_refresh_token BLOB,
            email TEXT,
            is_private_email INTEGER NOT NULL,
            email_enabled INTEGER NOT NULL,
            created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX apple_links_user_id ON apple_links(user_id, created_at);

        CREATE TABLE apple_notifications (
            id TEXT NOT NULL PRIMARY KEY,
            expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX apple_notifications_expires_at ON apple_notifications(expires_at);

        CREATE TABLE apple_web_states (
            state TEXT NOT NULL PRIMARY KEY,
            raw_nonce TEXT NOT NULL,
            user_id BLOB REFERENCES users(id) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX apple_web_states_user_id ON apple_web_states(user_id);
        CREATE INDEX apple_web_states_expires_at ON apple_web_states(expires_at);
        """

    /// Passwords: one self-describing hash per user (never the password), and per-account-name failure counts
    /// with the next allowed attempt, shared by every process using the file.
    private static let v3Passwords = """
        CREATE TABLE password_credentials (
            user_id BLOB NOT NULL PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            hash TEXT NOT NULL CHECK (length(hash) BETWEEN 1 AND 1024),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE password_throttles (
            key TEXT NOT NULL PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 512),
            failures INTEGER NOT NULL CHECK (failures >= 0),
            next_allowed_at TEXT NOT NULL,
            last_failure_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX password_throttles_last_failure_at ON password_throttles(last_failure_at);
        """

    /// Sign in with Apple from apps: server-issued single-use nonces, and the identity tokens (Apple ID and nonce
    /// hash) that have signed in, kept until they expire so none signs in twice.
    private static let v4Apple = """
        CREATE TABLE apple_nonces (
            nonce TEXT NOT NULL PRIMARY KEY,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX apple_nonces_expires_at ON apple_nonces(expires_at);

        CREATE TABLE apple_token_uses (
            subject TEXT NOT NULL,
            nonce_hash TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            PRIMARY KEY (subject, nonce_hash)
        ) STRICT;
        CREATE INDEX apple_token_uses_expires_at ON apple_token_uses(expires_at);
        """

    /// Hardening (issue 14): the passkey each session was made with (deleting the passkey ends its sessions), secrets
    /// the instances share (made once), request counters per fixed window (rate limits per account name), and on
    /// Apple links whether the email is verified (existing links: not) and when consent was revoked, and each user's
    /// confusables skeleton (``NameSkeleton``), computed for existing users by the migration.
    private static let v5Hardening = """
        ALTER TABLE sessions ADD COLUMN credential_id BLOB REFERENCES credentials(id) ON DELETE CASCADE;
        CREATE INDEX sessions_credential_id ON sessions(credential_id);

        CREATE TABLE server_secrets (
            name TEXT NOT NULL PRIMARY KEY,
            value BLOB NOT NULL CHECK (length(value) BETWEEN 16 AND 128)
        ) STRICT;

        CREATE TABLE request_counts (
            key TEXT NOT NULL PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 512),
            window_start TEXT NOT NULL,
            count INTEGER NOT NULL CHECK (count >= 1)
        ) STRICT;
        CREATE INDEX request_counts_window_start ON request_counts(window_start);

        ALTER TABLE apple_links ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE apple_links ADD COLUMN consent_revoked_at TEXT;

        ALTER TABLE users ADD COLUMN name_skeleton TEXT;
        CREATE INDEX users_name_skeleton ON users(name_skeleton);
        """

    /// Pending ceremonies travel sealed in their tickets; the store only remembers which tickets were spent, until
    /// they expire. Ceremonies pending at the upgrade are dropped: their clients begin again (404 `ceremony.notFound`).
    private static let v6SpentTickets = """
        DROP TABLE ceremonies;
        CREATE TABLE spent_tickets (
            id TEXT NOT NULL PRIMARY KEY,
            expires_at TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX spent_tickets_expires_at ON spent_tickets(expires_at);
        """

    /// An account's credentials are read oldest first, ties broken by ID (``StoreColumns/account(where:)``). The first
    /// index ended at `created_at`, so every account read sorted its credentials in a temporary b-tree; with `id` in the
    /// index the rows come in order.
    private static let v7AccountOrder = """
        CREATE INDEX credentials_user_order ON credentials(user_id, created_at, id);
        DROP INDEX credentials_user_id;
        """

    /// The two triggers between a session and its passkey (v8 made them; v16 makes them again after rebuilding
    /// `sessions`). Shipped in v8: never edit; a change is a new migration.
    private static let sessionPasskeyTriggers = """
        CREATE TRIGGER credentials_end_sessions AFTER DELETE ON credentials BEGIN
            DELETE FROM sessions WHERE user_id = OLD.user_id AND credential_id = OLD.id;
        END;
        CREATE TRIGGER sessions_check_credential BEFORE INSERT ON sessions
        WHEN NEW.credential_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM credentials WHERE id = NEW.credential_id AND user_id = NEW.user_id)
        BEGIN
            SELECT RAISE(ABORT, 'the session''s passkey is not one of its user''s');
        END;
        """

    /// A sign-in writes a spent ticket and a session, and every index of those tables is one more page in the write-ahead
    /// log, checksummed, written and later copied back (docs/PERFORMANCE.md). Two go:
    ///
    /// - `spent_tickets` is keyed by expiry, then ID, so the purge reads the primary key and no second index is kept.
    ///   A ticket is spent once because its expiry is sealed in it with its ID: the same ticket always comes back with
    ///   the same pair.
    /// - A session's passkey is no longer a foreign key, which needed an index of its own for the cascade. One index on
    ///   (user, passkey) serves the user's foreign key and a trigger that ends a passkey's sessions when it is deleted,
    ///   however it is deleted; a second trigger refuses a session whose passkey is not its user's (the foreign key
    ///   refused only a passkey that did not exist). The migration runs with foreign keys off, as GRDB runs every
    ///   migration, and checks them at the end. A later migration that rebuilds `credentials` or `sessions` must make
    ///   these triggers again: the table's own go with it, and `credentials_end_sessions` (on `credentials`) must be
    ///   dropped before a rebuilt `sessions` is renamed (v16).
    private static let v8FewerIndexWrites = """
        CREATE TABLE spent_tickets_v8 (
            id TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            PRIMARY KEY (expires_at, id)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO spent_tickets_v8 (id, expires_at) SELECT id, expires_at FROM spent_tickets;
        DROP TABLE spent_tickets;
        ALTER TABLE spent_tickets_v8 RENAME TO spent_tickets;

        CREATE TABLE sessions_v8 (
            token_hash BLOB NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            credential_id BLOB
        ) STRICT;
        INSERT INTO sessions_v8 (token_hash, user_id, created_at, expires_at, credential_id)
            SELECT token_hash, user_id, created_at, expires_at, credential_id FROM sessions;
        DROP TABLE sessions;
        ALTER TABLE sessions_v8 RENAME TO sessions;
        CREATE INDEX sessions_user_credential ON sessions(user_id, credential_id);
        CREATE INDEX sessions_expires_at ON sessions(expires_at);
        \(sessionPasskeyTriggers)
        """

    /// Sessions the account can see and judge (issue 38): when the user last proved who they are (re-authentication
    /// before sensitive changes), when the session was last seen, a device label and a coarse network. A trigger ends
    /// an account's oldest sessions beyond ``StoredSession/maximumPerAccount`` whenever one is made, however it is made.
    /// `request_counts` goes: nothing has used it since the per-name options limit was removed.
    private static let v9SessionsAsDevices = """
        ALTER TABLE sessions ADD COLUMN verified_at TEXT;
        ALTER TABLE sessions ADD COLUMN last_seen_at TEXT;
        ALTER TABLE sessions ADD COLUMN device TEXT;
        ALTER TABLE sessions ADD COLUMN network TEXT;
        CREATE TRIGGER sessions_cap AFTER INSERT ON sessions
        WHEN (SELECT count(*) FROM sessions WHERE user_id = NEW.user_id) > \(StoredSession.maximumPerAccount)
        BEGIN
            DELETE FROM sessions WHERE token_hash IN (
                SELECT token_hash FROM sessions WHERE user_id = NEW.user_id
                ORDER BY created_at DESC, token_hash DESC LIMIT -1 OFFSET \(StoredSession.maximumPerAccount));
        END;
        DROP TABLE request_counts;
        """

    /// Recovery (issue 38): each user's current set of codes, and the links an operator issues, as SHA-256 hashes; a
    /// code or link is deleted when used, a link also when it expires.
    private static let v10RecoveryCodes = """
        CREATE TABLE recovery_codes (
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            code_hash BLOB NOT NULL CHECK (length(code_hash) = 32),
            created_at TEXT NOT NULL,
            PRIMARY KEY (user_id, code_hash)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE recovery_links (
            token_hash BLOB NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX recovery_links_user_id ON recovery_links(user_id);
        """

    /// Email (issue 38): each account's addresses, with at most one code each (its SHA-256 and expiry: a verification
    /// code while the address is unverified, a recovery code once verified), and the outbox of notices. A verified
    /// address belongs to one account (the partial unique index); unverified ones may repeat.
    private static let v11Email = """
        CREATE TABLE emails (
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            address_key TEXT NOT NULL CHECK (length(address_key) BETWEEN 3 AND \(StoredEmail.maximumLength)),
            address TEXT NOT NULL,
            verified_at TEXT,
            is_primary INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            code_hash BLOB CHECK (code_hash IS NULL OR length(code_hash) = 32),
            code_expires_at TEXT,
            PRIMARY KEY (user_id, address_key)
        ) STRICT, WITHOUT ROWID;
        CREATE UNIQUE INDEX emails_verified_address ON emails(address_key) WHERE verified_at IS NOT NULL;
        CREATE TABLE mail_outbox (
            id BLOB NOT NULL PRIMARY KEY,
            recipient TEXT NOT NULL,
            subject TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX mail_outbox_due ON mail_outbox(next_attempt_at);
        """

    /// Access tokens (issue 39): the keys that sign them, by generation, sealed; and refresh tokens, as SHA-256 hashes,
    /// each bound to its session (deleted with it) and its family.
    private static let v12Tokens = """
        CREATE TABLE signing_keys (
            generation INTEGER NOT NULL PRIMARY KEY,
            key_id TEXT NOT NULL UNIQUE,
            sealed_private_key BLOB NOT NULL,
            public_jwk TEXT NOT NULL,
            created_at TEXT NOT NULL,
            signs_from TEXT NOT NULL
        ) STRICT;
        CREATE TABLE refresh_tokens (
            token_hash BLOB NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
            family BLOB NOT NULL,
            session_token_hash BLOB NOT NULL REFERENCES sessions(token_hash) ON DELETE CASCADE,
            user_id BLOB NOT NULL,
            amr TEXT NOT NULL,
            auth_time TEXT NOT NULL,
            created_at TEXT NOT NULL,
            used_at TEXT
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX refresh_tokens_session ON refresh_tokens(session_token_hash);
        """

    /// The audit log (issue 39): one row per security event, in the order written; found by user and by time. A sign-in
    /// writes one, so the time is whole milliseconds since 1970 (no date text to format).
    private static let v13Audit = """
        CREATE TABLE audit_events (
            sequence INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            occurred_at INTEGER NOT NULL,
            user_id BLOB,
            actor TEXT,
            ip TEXT,
            user_agent TEXT,
            authenticator TEXT,
            detail TEXT
        ) STRICT;
        CREATE INDEX audit_events_user ON audit_events(user_id, sequence) WHERE user_id IS NOT NULL;
        CREATE INDEX audit_events_time ON audit_events(occurred_at);
        """

    /// Webhooks (issue 39): one delivery per event and endpoint, queued with the event and deleted with it. Times are
    /// whole milliseconds since 1970, as the audit log's.
    private static let v14Webhooks = """
        CREATE TABLE webhook_deliveries (
            id INTEGER PRIMARY KEY,
            endpoint TEXT NOT NULL,
            event_sequence INTEGER NOT NULL REFERENCES audit_events(sequence) ON DELETE CASCADE,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER NOT NULL,
            last_attempt_at INTEGER,
            last_error TEXT
        ) STRICT;
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending';
        CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_sequence);
        """

    /// Refresh tokens (issue 39) carry their session's hash and generation, sealed by the server; the session keeps
    /// the generation that is current, so a sign-in writes no row for its refresh token. Tokens issued before this
    /// version stop working (their apps sign in again).
    private static let v15SealedRefreshTokens = """
        DROP TABLE refresh_tokens;
        ALTER TABLE sessions ADD COLUMN refresh_generation INTEGER NOT NULL DEFAULT 0;
        """

    /// Sessions keyed by their token's hash alone (`WITHOUT ROWID`: one b-tree where a table and its key's index were
    /// two) and indexed by account and age, as PostgreSQL's v15. The account's list reads the account's sessions from
    /// that index in order, with no sort; the cap reads only the index (each entry carries the key), and no longer
    /// counts before it deletes. The one index also serves the user's foreign key and `credentials_end_sessions`,
    /// which reads the account's sessions (at most 50). Where users sign in often, every sign-in ends its account's
    /// oldest session, so the cap is on the sign-in's path (docs/PERFORMANCE.md). Nothing refers to a session (v15
    /// dropped `refresh_tokens`). The triggers on `sessions` go with the old table; `credentials_end_sessions`, on
    /// `credentials`, is dropped first, since renaming the new table checks every trigger that names `sessions`. All
    /// three are made again after the rebuild, whose copy goes in key order to fill the b-tree's pages.
    private static let v16SessionsByAccountAge = """
        DROP TRIGGER credentials_end_sessions;
        CREATE TABLE sessions_v16 (
            token_hash BLOB NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
            user_id BLOB NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            credential_id BLOB,
            verified_at TEXT,
            last_seen_at TEXT,
            device TEXT,
            network TEXT,
            refresh_generation INTEGER NOT NULL DEFAULT 0
        ) STRICT, WITHOUT ROWID;
        INSERT INTO sessions_v16 (
            token_hash, user_id, created_at, expires_at, credential_id, verified_at, last_seen_at, device, network,
            refresh_generation)
        SELECT
            token_hash, user_id, created_at, expires_at, credential_id, verified_at, last_seen_at, device, network,
            refresh_generation
        FROM sessions ORDER BY token_hash;
        DROP TABLE sessions;
        ALTER TABLE sessions_v16 RENAME TO sessions;
        CREATE INDEX sessions_user_created ON sessions(user_id, created_at);
        CREATE INDEX sessions_expires_at ON sessions(expires_at);
        \(sessionPasskeyTriggers)
        CREATE TRIGGER sessions_cap AFTER INSERT ON sessions BEGIN
            DELETE FROM sessions WHERE token_hash IN (
                SELECT token_hash FROM sessions WHERE user_id = NEW.user_id
                ORDER BY created_at DESC, token_hash DESC LIMIT -1 OFFSET \(StoredSession.maximumPerAccount));
        END;
        """
}
