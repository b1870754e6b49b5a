import Foundation
import GRDB

// The password part of ``SQLiteStore``.

extension SQLiteStore {
    public func passwordHash(ofUser userID: UUID) async throws(StoreError) -> String? {
        try await first("SELECT hash FROM password_credentials WHERE user_id = ?", [userID]) {
            try $0.decode(atIndex: 0)
        }
    }

    public func commitPasswordSignUp(_ user: StoredUser, passwordHash: String, session: StoredSession)
        async throws(StoreError)
    {
        try OutcomeChecks.checkPasswordSignUp(user, passwordHash: passwordHash, session: session)
        try await write { db in
            try Self.insert(user, into: db)
            try db.execute(
                sql: "INSERT INTO password_credentials (user_id, hash, created_at, updated_at) VALUES (?, ?, ?, ?)",
                arguments: [user.id, passwordHash, user.createdAt, user.createdAt]
            )
            try Self.insert(session, into: db)
        }
    }

    public func setPasswordHash(_ hash: String, ofUser userID: UUID, now: Date) async throws(StoreError) {
        try PasswordThrottle.validate(hash: hash)
        try await change(
            """
            INSERT INTO password_credentials (user_id, hash, created_at, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at
            """, [userID, hash, now, now])
    }

    public func replacePasswordHash(ofUser userID: UUID, expected: String, with hash: String, now: Date)
        async throws(StoreError) -> Bool
    {
        try PasswordThrottle.validate(hash: hash)
        return try await change(
            "UPDATE password_credentials SET hash = ?, updated_at = ? WHERE user_id = ? AND hash = ?",
            [hash, now, userID, expected], recordingIf: { $0 > 0 }) > 0
    }

    public func deletePassword(ofUser userID: UUID, keepingAnotherWayIn: Bool) async throws(StoreError) {
        try await write { db in
            try Self.requireChange(
                db, "DELETE FROM password_credentials WHERE user_id = ?", [userID],
                otherwise: "the user has no password")
            if keepingAnotherWayIn {
                try Self.requireWayIn(db, of: userID, otherwise: "the password is the user's last way to sign in")
            }
        }
    }

    private static let selectThrottle =
        "SELECT key, failures, next_allowed_at, last_failure_at FROM password_throttles WHERE key = ?"

    public func passwordThrottle(key: String) async throws(StoreError) -> PasswordThrottle? {
        try await first(Self.selectThrottle, [key], PasswordThrottle.init(sqliteRow:))
    }

    public func reservePasswordAttempt(
        key: String, now: Date, delay: @escaping @Sendable (Int) -> TimeInterval
    ) async throws(StoreError) -> PasswordThrottle? {
        try PasswordThrottle.validate(key: key)
        return try await write { db in
            let existing = try Row.fetchOne(db, sql: Self.selectThrottle, arguments: [key]).map(
                PasswordThrottle.init(sqliteRow:))
            if let existing, existing.nextAllowedAt > now { return nil }
            let failures = (existing?.failures ?? 0) + 1
            let next = now.addingTimeInterval(delay(failures))
            try db.execute(
                sql: """
                    INSERT INTO password_throttles (key, failures, next_allowed_at, last_failure_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET failures = excluded.failures,
                        next_allowed_at = excluded.next_allowed_at, last_failure_at = excluded.last_failure_at
                    """,
                arguments: [key, failures, next, now])
            return PasswordThrottle(key: key, failures: failures, nextAllowedAt: next, lastFailureAt: now)
        }
    }

    public func clearPasswordFailures(key: String) async throws(StoreError) {
        try await change("DELETE FROM password_throttles WHERE key = ?", [key])
    }

    public func purgePasswordThrottles(lastFailureBefore cutoff: Date) async throws(StoreError) -> Int {
        try await purge("password_throttles", where: "last_failure_at < ?", cutoff)
    }
}

extension PasswordThrottle {
    init(sqliteRow row: Row) throws {
        self.init(
            key: try row.decode(forColumn: "key"), failures: try row.decode(forColumn: "failures"),
            nextAllowedAt: try row.decode(forColumn: "next_allowed_at"),
            lastFailureAt: try row.decode(forColumn: "last_failure_at")
        )
    }
}
