import Foundation
import GRDB

// The email part of ``SQLiteStore``.

extension SQLiteStore {
    public func emails(ofUser userID: UUID) async throws(StoreError) -> [StoredEmail] {
        try await all(
            """
            SELECT address, verified_at, is_primary, created_at FROM emails WHERE user_id = ?
            ORDER BY is_primary DESC, created_at, address_key
            """, [userID]
        ) { row in
            StoredEmail(
                userID: userID, address: row["address"], verifiedAt: row["verified_at"], isPrimary: row["is_primary"],
                createdAt: row["created_at"])
        }
    }

    public func addEmail(_ address: String, toUser userID: UUID, codeHash: Data, codeExpiresAt: Date, now: Date)
        async throws(StoreError) -> StoredEmail.Addition
    {
        try StoredValues.requireSHA256([codeHash], "an email code hash")
        let key = StoredEmail.key(of: address)
        return try await write(recordingIf: { $0 == .added }) { db in
            let existing = try Row.fetchOne(
                db, sql: "SELECT verified_at FROM emails WHERE user_id = ? AND address_key = ?",
                arguments: [userID, key])
            if let existing {
                guard (existing["verified_at"] as Date?) == nil else { return .alreadyVerified }
                try db.execute(
                    sql: """
                        UPDATE emails SET address = ?, code_hash = ?, code_expires_at = ?
                        WHERE user_id = ? AND address_key = ?
                        """,
                    arguments: [address, codeHash, codeExpiresAt, userID, key])
                return .added
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM emails WHERE user_id = ?", arguments: [userID])
            guard (count ?? 0) < StoredEmail.maximumPerAccount else { return .tooMany }
            try db.execute(
                sql: """
                    INSERT INTO emails (user_id, address_key, address, created_at, code_hash, code_expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [userID, key, address, now, codeHash, codeExpiresAt])
            return .added
        }
    }

    public func verifyEmail(_ address: String, ofUser userID: UUID, codeHash: Data, now: Date)
        async throws(StoreError) -> Bool
    {
        let key = StoredEmail.key(of: address)
        return try await change(
            """
            UPDATE emails SET verified_at = ?, code_hash = NULL, code_expires_at = NULL,
                is_primary = NOT EXISTS (SELECT 1 FROM emails WHERE user_id = ? AND is_primary)
            WHERE user_id = ? AND address_key = ? AND verified_at IS NULL AND code_hash = ? AND code_expires_at > ?
            """, [now, userID, userID, key, codeHash, now], recordingIf: { $0 > 0 }) > 0
    }

    public func userID(verifiedEmail address: String) async throws(StoreError) -> UUID? {
        let key = StoredEmail.key(of: address)
        return try await first("SELECT user_id FROM emails WHERE address_key = ? AND verified_at IS NOT NULL", [key]) {
            try $0.decode(atIndex: 0)
        }
    }

    public func setEmailRecoveryCode(address: String, codeHash: Data, expiresAt: Date) async throws(StoreError)
        -> StoredEmail?
    {
        try StoredValues.requireSHA256([codeHash], "an email code hash")
        let key = StoredEmail.key(of: address)
        return try await write { db in
            try Row.fetchOne(
                db,
                sql: """
                    UPDATE emails SET code_hash = ?, code_expires_at = ?
                    WHERE address_key = ? AND verified_at IS NOT NULL
                    RETURNING user_id, address, verified_at, is_primary, created_at
                    """,
                arguments: [codeHash, expiresAt, key]
            ).map { row in
                StoredEmail(
                    userID: row["user_id"], address: row["address"], verifiedAt: row["verified_at"],
                    isPrimary: row["is_primary"], createdAt: row["created_at"])
            }
        }
    }

    public func consumeEmailRecoveryCode(address: String, codeHash: Data, now: Date) async throws(StoreError) -> UUID? {
        let key = StoredEmail.key(of: address)
        return try await write(recordingIf: { $0 != nil }) { db in
            try UUID.fetchOne(
                db,
                sql: """
                    UPDATE emails SET code_hash = NULL, code_expires_at = NULL
                    WHERE address_key = ? AND verified_at IS NOT NULL AND code_hash = ? AND code_expires_at > ?
                    RETURNING user_id
                    """,
                arguments: [key, codeHash, now])
        }
    }

    public func removeEmail(_ address: String, ofUser userID: UUID) async throws(StoreError) {
        let key = StoredEmail.key(of: address)
        try await write { db in
            try db.execute(sql: "DELETE FROM emails WHERE user_id = ? AND address_key = ?", arguments: [userID, key])
            guard db.changesCount > 0 else { throw EmailRules.notFound }
            try db.execute(
                sql: """
                    UPDATE emails SET is_primary = 1 WHERE user_id = ? AND address_key = (
                        SELECT address_key FROM emails WHERE user_id = ? AND verified_at IS NOT NULL
                        ORDER BY created_at, address_key LIMIT 1)
                    AND NOT EXISTS (SELECT 1 FROM emails WHERE user_id = ? AND is_primary)
                    """,
                arguments: [userID, userID, userID])
        }
    }

    public func makePrimaryEmail(_ address: String, ofUser userID: UUID) async throws(StoreError) {
        let key = StoredEmail.key(of: address)
        // The events pending go only with a change made.
        let changed = try await change(
            """
            UPDATE emails SET is_primary = (address_key = ?) WHERE user_id = ? AND EXISTS (
                SELECT 1 FROM emails WHERE user_id = ? AND address_key = ? AND verified_at IS NOT NULL)
            """, [key, userID, userID, key], recordingIf: { $0 > 0 })
        guard changed > 0 else { throw EmailRules.notVerified }
    }

    public func enqueueMail(_ mail: StoredMail, limit: Int) async throws(StoreError) -> Bool {
        try await write { db in
            guard (try Int.fetchOne(db, sql: "SELECT count(*) FROM mail_outbox") ?? 0) < limit else { return false }
            try db.execute(
                sql: """
                    INSERT INTO mail_outbox (id, recipient, subject, body, created_at, attempts, next_attempt_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    mail.id, mail.recipient, mail.subject, mail.body, mail.createdAt, mail.attempts, mail.nextAttemptAt,
                ])
            return true
        }
    }

    public func claimMail(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [StoredMail] {
        try await write { db in
            try Row.fetchAll(
                db,
                sql: """
                    UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?
                    WHERE id IN (SELECT id FROM mail_outbox WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?)
                    RETURNING id, recipient, subject, body, created_at, attempts, next_attempt_at
                    """,
                arguments: [now.addingTimeInterval(lease), now, limit]
            ).map { row in
                StoredMail(
                    id: row["id"], recipient: row["recipient"], subject: row["subject"], body: row["body"],
                    createdAt: row["created_at"], attempts: row["attempts"], nextAttemptAt: row["next_attempt_at"])
            }
        }
    }

    public func deleteMail(id: UUID) async throws(StoreError) {
        try await change("DELETE FROM mail_outbox WHERE id = ?", [id])
    }

    public func rescheduleMail(id: UUID, at time: Date) async throws(StoreError) {
        try await change("UPDATE mail_outbox SET next_attempt_at = ? WHERE id = ?", [time, id])
    }
}
