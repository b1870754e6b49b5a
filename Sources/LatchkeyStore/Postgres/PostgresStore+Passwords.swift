import Foundation
import PostgresNIO

// The password part of ``PostgresStore``.

extension PostgresStore {
    public func passwordHash(ofUser userID: UUID) async throws(StoreError) -> String? {
        try await first("SELECT hash FROM password_credentials WHERE user_id = \(userID)") {
            try $0.decode(String.self)
        }
    }

    public func commitPasswordSignUp(_ user: StoredUser, passwordHash: String, session: StoredSession)
        async throws(StoreError)
    {
        try OutcomeChecks.checkPasswordSignUp(user, passwordHash: passwordHash, session: session)
        try await transaction { [self] connection in
            try await connection.execute(user.postgresInsert, logger: logger)
            try await connection.execute(
                """
                INSERT INTO password_credentials (user_id, hash, created_at, updated_at)
                VALUES (\(user.id), \(passwordHash), \(user.createdAt), \(user.createdAt))
                """,
                logger: logger
            )
            try await connection.execute(session.postgresInsert, logger: logger)
        }
    }

    public func setPasswordHash(_ hash: String, ofUser userID: UUID, now: Date) async throws(StoreError) {
        try PasswordThrottle.validate(hash: hash)
        try await change(
            """
            INSERT INTO password_credentials (user_id, hash, created_at, updated_at) VALUES (\(userID), \(hash), \(now), \(now))
            ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at
            """)
    }

    public func replacePasswordHash(ofUser userID: UUID, expected: String, with hash: String, now: Date)
        async throws(StoreError) -> Bool
    {
        try PasswordThrottle.validate(hash: hash)
        return try await change(
            recordingIf: { $0 > 0 },
            """
            UPDATE password_credentials SET hash = \(hash), updated_at = \(now)
            WHERE user_id = \(userID) AND hash = \(expected) RETURNING 1
            """) > 0
    }

    public func deletePassword(ofUser userID: UUID, keepingAnotherWayIn: Bool) async throws(StoreError) {
        try await transaction { [self] connection in
            // Locking the user's row serialises this user's removals of ways in (see deleteCredential).
            _ = try await connection.execute("SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE", logger: logger)
            let deleted = try await connection.execute(
                "DELETE FROM password_credentials WHERE user_id = \(userID) RETURNING 1", logger: logger
            )
            guard deleted > 0 else { throw StoreError(.notFound, "the user has no password") }
            if keepingAnotherWayIn {
                try await requireWayIn(
                    of: userID, on: connection, otherwise: "the password is the user's last way to sign in")
            }
        }
    }

    public func passwordThrottle(key: String) async throws(StoreError) -> PasswordThrottle? {
        try await first(
            "SELECT key, failures, next_allowed_at, last_failure_at FROM password_throttles WHERE key = \(key)",
            PasswordThrottle.init(postgresRow:))
    }

    public func reservePasswordAttempt(
        key: String, now: Date, delay: @escaping @Sendable (Int) -> TimeInterval
    ) async throws(StoreError) -> PasswordThrottle? {
        try PasswordThrottle.validate(key: key)
        return try await transaction { [self] connection in
            // The row exists (or is made) and is locked first, so concurrent attempts on any instance take turns.
            try await connection.execute(
                """
                INSERT INTO password_throttles (key, failures, next_allowed_at, last_failure_at) VALUES (\(key), 0, \(now), \(now))
                ON CONFLICT (key) DO NOTHING
                """,
                logger: logger)
            // Closed or not is decided in SQL: both times are whole microseconds there, where comparing in Swift would
            // set the `now` given against its own round trip through a timestamp (which can come back a hair later).
            let existing = try await connection.first(
                """
                SELECT failures, next_allowed_at > \(now) FROM password_throttles WHERE key = \(key) FOR UPDATE
                """,
                logger: logger
            ) { row in try row.decode((Int64, Bool).self) }
            if let existing, existing.1 { return nil }
            let failures = Int(existing?.0 ?? 0) + 1
            let next = now.addingTimeInterval(delay(failures))
            try await connection.execute(
                """
                UPDATE password_throttles SET failures = \(failures), next_allowed_at = \(next), last_failure_at = \(now)
                WHERE key = \(key)
                """,
                logger: logger)
            return PasswordThrottle(key: key, failures: failures, nextAllowedAt: next, lastFailureAt: now)
        }
    }

    public func clearPasswordFailures(key: String) async throws(StoreError) {
        try await change("DELETE FROM password_throttles WHERE key = \(key)")
    }

    public func purgePasswordThrottles(lastFailureBefore cutoff: Date) async throws(StoreError) -> Int {
        try await change("DELETE FROM password_throttles WHERE last_failure_at < \(cutoff) RETURNING 1")
    }
}

extension PasswordThrottle {
    init(postgresRow row: PostgresRow) throws {
        let (key, failures, nextAllowedAt, lastFailureAt) = try row.decode((String, Int64, Date, Date).self)
        self.init(key: key, failures: Int(failures), nextAllowedAt: nextAllowedAt, lastFailureAt: lastFailureAt)
    }
}
