import Foundation
import Logging
import PostgresNIO

/// The versioned PostgreSQL schema. ``PostgresStore/migrate()`` records applied versions in `schema_migrations`
/// and applies the missing ones in order, in one transaction under an advisory lock, so servers starting together
/// migrate once. Never edit a shipped migration: add the next one.
///
/// Constraint names are spelled out: ``UniqueValue/postgresConstraint`` maps them to conflict messages.
enum PostgresSchema {
    struct Migration: Sendable {
        let version: Int64
        let name: String
        /// One SQL statement each (the extended query protocol runs one at a time).
        let statements: [String]
        /// What the migration must also do in Swift, after its statements and in their transaction.
        var then: (@Sendable (PostgresConnection, Logger) async throws -> Void)? = nil
    }

    /// `pg_advisory_xact_lock` key that serialises migrations ("LatchKy" in ASCII).
    static let lockKey: Int64 = 0x4C61_7463_684B_79

    static let createMigrationsTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version bigint NOT NULL PRIMARY KEY,
            name text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """

    /// v5's second step: existing accounts get their confusables skeleton (the table is in Swift, not SQL).
    private static func fillNameSkeletons(_ connection: PostgresConnection, _ logger: Logger) async throws {
        let users = try await connection.all("SELECT id, name FROM users", logger: logger) {
            try $0.decode((UUID, String).self)
        }
        for (id, name) in users {
            try await connection.execute(
                "UPDATE users SET name_skeleton = \(NameSkeleton.of(name)) WHERE id = \(id)", logger: logger)
        }
    }

    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "users, credentials, ceremonies, sessions",
            statements: [
                """
                CREATE TABLE users (
                    id uuid NOT NULL CONSTRAINT users_pkey PRIMARY KEY,
                    user_handle bytea NOT NULL CONSTRAINT users_user_handle_key UNIQUE
                        CHECK (octet_length(user_handle) BETWEEN 1 AND 64),
                    name text NOT NULL,
                    name_key text NOT NULL CONSTRAINT users_name_key_key UNIQUE CHECK (name_key <> ''),
                    display_name text NOT NULL,
                    created_at timestamptz NOT NULL
                )
                """,
                """
                CREATE TABLE credentials (
                    id bytea NOT NULL CONSTRAINT credentials_pkey PRIMARY KEY CHECK (octet_length(id) BETWEEN 1 AND 1023),
                    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    public_key bytea NOT NULL,
                    algorithm bigint NOT NULL,
                    sign_count bigint NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
                    aaguid uuid NOT NULL,
                    transports text[] NOT NULL,
                    backup_eligible boolean NOT NULL,
                    backed_up boolean NOT NULL,
                    attestation_format text NOT NULL,
                    user_verified boolean NOT NULL,
                    discoverable boolean,
                    label text,
                    created_at timestamptz NOT NULL,
                    last_used_at timestamptz
                )
                """,
                "CREATE INDEX credentials_user_id ON credentials (user_id, created_at)",
                """
                CREATE TABLE ceremonies (
                    id text NOT NULL CONSTRAINT ceremonies_pkey PRIMARY KEY,
                    kind text NOT NULL CHECK (kind IN ('registration', 'authentication')),
                    challenge bytea NOT NULL,
                    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
                    payload bytea NOT NULL,
                    created_at timestamptz NOT NULL,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX ceremonies_user_id ON ceremonies (user_id)",
                "CREATE INDEX ceremonies_expires_at ON ceremonies (expires_at)",
                """
                CREATE TABLE sessions (
                    token_hash bytea NOT NULL CONSTRAINT sessions_pkey PRIMARY KEY CHECK (octet_length(token_hash) = 32),
                    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX sessions_user_id ON sessions (user_id)",
                "CREATE INDEX sessions_expires_at ON sessions (expires_at)",
            ]),
        Migration(
            version: 2, name: "Apple links, notification ids, Apple web states",
            statements: [
                """
                CREATE TABLE apple_links (
                    subject text NOT NULL CONSTRAINT apple_links_pkey PRIMARY KEY CHECK (octet_length(subject) BETWEEN 1 AND 255),
                    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    client_id text NOT NULL CHECK (octet_length(client_id) BETWEEN 1 AND 255),
                    sealed_refresh_token bytea,
                    email text,
                    is_private_email boolean NOT NULL,
                    email_enabled boolean NOT NULL,
                    created_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX apple_links_user_id ON apple_links (user_id, created_at)",
                """
                CREATE TABLE apple_notifications (
                    id text NOT NULL CONSTRAINT apple_notifications_pkey PRIMARY KEY,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX apple_notifications_expires_at ON apple_notifications (expires_at)",
                """
                CREATE TABLE apple_web_states (
                    state text NOT NULL CONSTRAINT apple_web_states_pkey PRIMARY KEY,
                    raw_nonce text NOT NULL,
                    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX apple_web_states_user_id ON apple_web_states (user_id)",
                "CREATE INDEX apple_web_states_expires_at ON apple_web_states (expires_at)",
            ]),
        Migration(
            version: 3, name: "password credentials and throttles",
            statements: [
                """
                CREATE TABLE password_credentials (
                    user_id uuid NOT NULL CONSTRAINT password_credentials_pkey PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    hash text NOT NULL CHECK (octet_length(hash) BETWEEN 1 AND 1024),
                    created_at timestamptz NOT NULL,
                    updated_at timestamptz NOT NULL
                )
                """,
                """
                CREATE TABLE password_throttles (
                    key text NOT NULL CONSTRAINT password_throttles_pkey PRIMARY KEY CHECK (octet_length(key) BETWEEN 1 AND 512),
                    failures bigint NOT NULL CHECK (failures >= 0),
                    next_allowed_at timestamptz NOT NULL,
                    last_failure_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX password_throttles_last_failure_at ON password_throttles (last_failure_at)",
            ]),
        Migration(
            version: 4, name: "Apple app nonces, Apple identity token uses",
            statements: [
                """
                CREATE TABLE apple_nonces (
                    nonce text NOT NULL CONSTRAINT apple_nonces_pkey PRIMARY KEY,
                    created_at timestamptz NOT NULL,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX apple_nonces_expires_at ON apple_nonces (expires_at)",
                """
                CREATE TABLE apple_token_uses (
                    subject text NOT NULL,
                    nonce_hash text NOT NULL,
                    expires_at timestamptz NOT NULL,
                    CONSTRAINT apple_token_uses_pkey PRIMARY KEY (subject, nonce_hash)
                )
                """,
                "CREATE INDEX apple_token_uses_expires_at ON apple_token_uses (expires_at)",
            ]),
        Migration(
            version: 5, name: "hardening",
            statements: [
                "ALTER TABLE sessions ADD COLUMN credential_id bytea REFERENCES credentials(id) ON DELETE CASCADE",
                "CREATE INDEX sessions_credential_id ON sessions (credential_id)",
                """
                CREATE TABLE server_secrets (
                    name text NOT NULL CONSTRAINT server_secrets_pkey PRIMARY KEY,
                    value bytea NOT NULL CHECK (octet_length(value) BETWEEN 16 AND 128)
                )
                """,
                """
                CREATE TABLE request_counts (
                    key text NOT NULL CONSTRAINT request_counts_pkey PRIMARY KEY CHECK (octet_length(key) BETWEEN 1 AND 512),
                    window_start timestamptz NOT NULL,
                    count bigint NOT NULL CHECK (count >= 1)
                )
                """,
                "CREATE INDEX request_counts_window_start ON request_counts (window_start)",
                "ALTER TABLE apple_links ADD COLUMN email_verified boolean NOT NULL DEFAULT false",
                "ALTER TABLE apple_links ADD COLUMN consent_revoked_at timestamptz",
                "ALTER TABLE users ADD COLUMN name_skeleton text",
                "CREATE INDEX users_name_skeleton ON users (name_skeleton)",
            ],
            then: fillNameSkeletons),
        // Pending ceremonies travel sealed in their tickets; the store only remembers which tickets were spent, until
        // they expire. Ceremonies pending at the upgrade are dropped: their clients begin again.
        Migration(
            version: 6, name: "spent tickets instead of stored ceremonies",
            statements: [
                "DROP TABLE ceremonies",
                """
                CREATE TABLE spent_tickets (
                    id text NOT NULL CONSTRAINT spent_tickets_pkey PRIMARY KEY,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX spent_tickets_expires_at ON spent_tickets (expires_at)",
            ]),
        // A sign-in's outcome in one round trip: the five of a transaction (BEGIN, spend, compare-and-set, session,
        // COMMIT) become one statement. The function runs in that statement's transaction, so an exception it raises
        // undoes everything it did, the spent ticket included; PostgresStore maps its codes (LK409, LK404, LK422).
        Migration(
            version: 7, name: "sign-in commit in one statement",
            statements: [
                """
                CREATE FUNCTION latchkey_commit_authentication(
                    ticket_id text, ticket_expires_at timestamptz,
                    credential bytea, new_sign_count bigint, now_backed_up boolean, used_at timestamptz, previous_sign_count bigint,
                    session_token_hash bytea, session_user_id uuid, session_created_at timestamptz, session_expires_at timestamptz,
                    session_credential_id bytea
                ) RETURNS boolean LANGUAGE plpgsql AS $function$
                DECLARE
                    owner uuid;
                BEGIN
                    INSERT INTO spent_tickets (id, expires_at) VALUES (ticket_id, ticket_expires_at) ON CONFLICT (id) DO NOTHING;
                    IF NOT FOUND THEN
                        RETURN false;
                    END IF;
                    UPDATE credentials SET sign_count = new_sign_count, backed_up = now_backed_up, last_used_at = used_at
                        WHERE id = credential AND sign_count = previous_sign_count
                        RETURNING user_id INTO owner;
                    IF NOT FOUND THEN
                        IF EXISTS (SELECT 1 FROM credentials WHERE id = credential) THEN
                            RAISE EXCEPTION 'the sign count moved' USING ERRCODE = 'LK409';
                        END IF;
                        RAISE EXCEPTION 'the credential does not exist' USING ERRCODE = 'LK404';
                    END IF;
                    IF session_token_hash IS NOT NULL THEN
                        IF session_user_id IS DISTINCT FROM owner THEN
                            RAISE EXCEPTION 'the session is for another user' USING ERRCODE = 'LK422';
                        END IF;
                        INSERT INTO sessions (token_hash, user_id, created_at, expires_at, credential_id)
                            VALUES (session_token_hash, session_user_id, session_created_at, session_expires_at, session_credential_id);
                    END IF;
                    RETURN true;
                END
                $function$
                """
            ]),
        // Sessions as devices (issue 38): the user's last verification, last seen, device label and coarse network; a
        // trigger that ends an account's oldest sessions beyond StoredSession.maximumPerAccount; the sign-in function with
        // the new columns and the backup-eligible flag (stored when a changed one is accepted); request_counts, unused
        // since the per-name options limit went.
        Migration(
            version: 8, name: "sessions as devices",
            statements: [
                "ALTER TABLE sessions ADD COLUMN verified_at timestamptz",
                "ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz",
                "ALTER TABLE sessions ADD COLUMN device text",
                "ALTER TABLE sessions ADD COLUMN network text",
                """
                CREATE FUNCTION latchkey_cap_sessions() RETURNS trigger LANGUAGE plpgsql AS $function$
                BEGIN
                    IF (SELECT count(*) FROM sessions WHERE user_id = NEW.user_id) > \(StoredSession.maximumPerAccount) THEN
                        DELETE FROM sessions WHERE token_hash IN (
                            SELECT token_hash FROM sessions WHERE user_id = NEW.user_id
                            ORDER BY created_at DESC, token_hash DESC OFFSET \(StoredSession.maximumPerAccount));
                    END IF;
                    RETURN NULL;
                END
                $function$
                """,
                """
                CREATE TRIGGER sessions_cap AFTER INSERT ON sessions
                    FOR EACH ROW EXECUTE FUNCTION latchkey_cap_sessions()
                """,
                """
                DROP FUNCTION latchkey_commit_authentication(
                    text, timestamptz, bytea, bigint, boolean, timestamptz, bigint, bytea, uuid, timestamptz, timestamptz, bytea)
                """,
                """
                CREATE FUNCTION latchkey_commit_authentication(
                    ticket_id text, ticket_expires_at timestamptz,
                    credential bytea, new_sign_count bigint, now_backup_eligible boolean, now_backed_up boolean, used_at timestamptz, previous_sign_count bigint,
                    session_token_hash bytea, session_user_id uuid, session_created_at timestamptz, session_expires_at timestamptz,
                    session_credential_id bytea, session_verified_at timestamptz, session_device text, session_network text
                ) RETURNS boolean LANGUAGE plpgsql AS $function$
                DECLARE
                    owner uuid;
                BEGIN
                    INSERT INTO spent_tickets (id, expires_at) VALUES (ticket_id, ticket_expires_at) ON CONFLICT (id) DO NOTHING;
                    IF NOT FOUND THEN
                        RETURN false;
                    END IF;
                    UPDATE credentials SET sign_count = new_sign_count, backup_eligible = now_backup_eligible,
                        backed_up = now_backed_up, last_used_at = used_at
                        WHERE id = credential AND sign_count = previous_sign_count
                        RETURNING user_id INTO owner;
                    IF NOT FOUND THEN
                        IF EXISTS (SELECT 1 FROM credentials WHERE id = credential) THEN
                            RAISE EXCEPTION 'the sign count moved' USING ERRCODE = 'LK409';
                        END IF;
                        RAISE EXCEPTION 'the credential does not exist' USING ERRCODE = 'LK404';
                    END IF;
                    IF session_token_hash IS NOT NULL THEN
                        IF session_user_id IS DISTINCT FROM owner THEN
                            RAISE EXCEPTION 'the session is for another user' USING ERRCODE = 'LK422';
                        END IF;
                        INSERT INTO sessions (
                            token_hash, user_id, created_at, expires_at, credential_id, verified_at, device, network)
                        VALUES (
                            session_token_hash, session_user_id, session_created_at, session_expires_at,
                            session_credential_id, session_verified_at, session_device, session_network);
                    END IF;
                    RETURN true;
                END
                $function$
                """,
                "DROP TABLE request_counts",
            ]),
        // Recovery: each user's current set of codes, and the links an operator issues, as SHA-256 hashes; a code or
        // link is deleted when used, a link also when it expires.
        Migration(
            version: 9, name: "recovery codes and links",
            statements: [
                """
                CREATE TABLE recovery_codes (
                    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    code_hash bytea NOT NULL CHECK (octet_length(code_hash) = 32),
                    created_at timestamptz NOT NULL,
                    CONSTRAINT recovery_codes_pkey PRIMARY KEY (user_id, code_hash)
                )
                """,
                """
                CREATE TABLE recovery_links (
                    token_hash bytea NOT NULL CONSTRAINT recovery_links_pkey PRIMARY KEY CHECK (octet_length(token_hash) = 32),
                    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX recovery_links_user_id ON recovery_links (user_id)",
            ]),
        // Email: each account's addresses, with at most one code each (its SHA-256 and expiry: a verification code while
        // the address is unverified, a recovery code once verified), and the outbox of notices. A verified address
        // belongs to one account (the partial unique index); unverified ones may repeat.
        Migration(
            version: 10, name: "email addresses and the outbox",
            statements: [
                """
                CREATE TABLE emails (
                    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    address_key text NOT NULL CHECK (length(address_key) BETWEEN 3 AND \(StoredEmail.maximumLength)),
                    address text NOT NULL,
                    verified_at timestamptz,
                    is_primary boolean NOT NULL DEFAULT false,
                    created_at timestamptz NOT NULL,
                    code_hash bytea CHECK (code_hash IS NULL OR octet_length(code_hash) = 32),
                    code_expires_at timestamptz,
                    CONSTRAINT emails_pkey PRIMARY KEY (user_id, address_key)
                )
                """,
                "CREATE UNIQUE INDEX emails_verified_address ON emails (address_key) WHERE verified_at IS NOT NULL",
                """
                CREATE TABLE mail_outbox (
                    id uuid NOT NULL CONSTRAINT mail_outbox_pkey PRIMARY KEY,
                    recipient text NOT NULL,
                    subject text NOT NULL,
                    body text NOT NULL,
                    created_at timestamptz NOT NULL,
                    attempts bigint NOT NULL,
                    next_attempt_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at)",
            ]),
        // Access tokens: the keys that sign them, by generation, sealed; and refresh tokens, as SHA-256 hashes, each bound
        // to its session (deleted with it) and its family.
        Migration(
            version: 11, name: "signing keys and refresh tokens",
            statements: [
                """
                CREATE TABLE signing_keys (
                    generation bigint NOT NULL CONSTRAINT signing_keys_pkey PRIMARY KEY,
                    key_id text NOT NULL CONSTRAINT signing_keys_key_id_key UNIQUE,
                    sealed_private_key bytea NOT NULL,
                    public_jwk text NOT NULL,
                    created_at timestamptz NOT NULL,
                    signs_from timestamptz NOT NULL
                )
                """,
                """
                CREATE TABLE refresh_tokens (
                    token_hash bytea NOT NULL CONSTRAINT refresh_tokens_pkey PRIMARY KEY CHECK (octet_length(token_hash) = 32),
                    family bytea NOT NULL,
                    session_token_hash bytea NOT NULL REFERENCES sessions(token_hash) ON DELETE CASCADE,
                    user_id uuid NOT NULL,
                    amr text NOT NULL,
                    auth_time timestamptz NOT NULL,
                    created_at timestamptz NOT NULL,
                    used_at timestamptz
                )
                """,
                "CREATE INDEX refresh_tokens_session ON refresh_tokens (session_token_hash)",
            ]),
        Migration(
            version: 12, name: "the audit log",
            statements: [
                """
                CREATE TABLE audit_events (
                    sequence bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT audit_events_pkey PRIMARY KEY,
                    type text NOT NULL,
                    occurred_at timestamptz NOT NULL,
                    user_id uuid,
                    actor text,
                    ip text,
                    user_agent text,
                    authenticator text,
                    detail text
                )
                """,
                "CREATE INDEX audit_events_user ON audit_events (user_id, sequence) WHERE user_id IS NOT NULL",
                "CREATE INDEX audit_events_time ON audit_events (occurred_at)",
            ]),
        Migration(
            version: 13, name: "webhook deliveries",
            statements: [
                """
                CREATE TABLE webhook_deliveries (
                    id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT webhook_deliveries_pkey PRIMARY KEY,
                    endpoint text NOT NULL,
                    event_sequence bigint NOT NULL REFERENCES audit_events(sequence) ON DELETE CASCADE,
                    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
                    attempts bigint NOT NULL DEFAULT 0,
                    next_attempt_at timestamptz NOT NULL,
                    last_attempt_at timestamptz,
                    last_error text
                )
                """,
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'",
                "CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_sequence)",
            ]),
        Migration(
            version: 14, name: "refresh tokens sealed, not stored",
            statements: [
                "DROP TABLE refresh_tokens",
                "ALTER TABLE sessions ADD COLUMN refresh_generation bigint NOT NULL DEFAULT 0",
            ]),
        // An account's sessions newest first, for the list and the cap: the cap reads the newest 51 along this index
        // instead of counting every entry of the account. A count went over the entries of ended sessions too, which
        // PostgreSQL keeps until vacuum; they are the oldest, at this index's far end.
        Migration(
            version: 15, name: "sessions newest first",
            statements: [
                "CREATE INDEX sessions_user_newest ON sessions (user_id, created_at DESC, token_hash DESC)",
                "DROP INDEX sessions_user_id",
                """
                CREATE OR REPLACE FUNCTION latchkey_cap_sessions() RETURNS trigger LANGUAGE plpgsql AS $function$
                BEGIN
                    DELETE FROM sessions WHERE token_hash IN (
                        SELECT token_hash FROM sessions WHERE user_id = NEW.user_id
                        ORDER BY created_at DESC, token_hash DESC OFFSET \(StoredSession.maximumPerAccount));
                    RETURN NULL;
                END
                $function$
                """,
            ]),
    ]
}
