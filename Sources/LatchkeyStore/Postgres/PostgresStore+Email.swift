import Foundation
import PostgresNIO

// The email part of ``PostgresStore``.

extension PostgresStore {
    public func emails(ofUser userID: UUID) async throws(StoreError) -> [StoredEmail] {
        try await all(
            """
            SELECT address, verified_at, is_primary, created_at FROM emails WHERE user_id = \(userID)
            ORDER BY is_primary DESC, created_at, address_key
            """
        ) { row in
            let (address, verifiedAt, isPrimary, createdAt) = try row.decode((String, Date?, Bool, Date).self)
            return StoredEmail(
                userID: userID, address: address, verifiedAt: verifiedAt, isPrimary: isPrimary, createdAt: createdAt)
        }
    }

    public func addEmail(_ address: String, toUser userID: UUID, codeHash: Data, codeExpiresAt: Date, now: Date)
        async throws(StoreError) -> StoredEmail.Addition
    {
        try StoredValues.requireSHA256([codeHash], "an email code hash")
        let key = StoredEmail.key(of: address)
        return try await transaction(recordingIf: { $0 == .added }) { [self] connection in
            // The user's row, locked, so that concurrent additions count one after the other.
            guard
                try await connection.execute("SELECT 1 FROM users WHERE id = \(userID) FOR UPDATE", logger: logger) > 0
            else { throw UniqueValue.missingUser }
            let existing = try await connection.first(
                "SELECT verified_at FROM emails WHERE user_id = \(userID) AND address_key = \(key)", logger: logger
            ) { try $0.decode(Date?.self) }
            if let existing {
                guard existing == nil else { return .alreadyVerified }
                try await connection.execute(
                    """
                    UPDATE emails SET address = \(address), code_hash = \(codeHash), code_expires_at = \(codeExpiresAt)
                    WHERE user_id = \(userID) AND address_key = \(key)
                    """,
                    logger: logger)
                return .added
            }
            let count = try await connection.first(
                "SELECT count(*) FROM emails WHERE user_id = \(userID)", logger: logger
            ) { try $0.decode(Int64.self) }
            guard (count ?? 0) < StoredEmail.maximumPerAccount else { return .tooMany }
            try await connection.execute(
                """
                INSERT INTO emails (user_id, address_key, address, created_at, code_hash, code_expires_at)
                VALUES (\(userID), \(key), \(address), \(now), \(codeHash), \(codeExpiresAt))
                """,
                logger: logger)
            return .added
        }
    }

    public func verifyEmail(_ address: String, ofUser userID: UUID, codeHash: Data, now: Date)
        async throws(StoreError) -> Bool
    {
        let key = StoredEmail.key(of: address)
        return try await change(
            recordingIf: { $0 > 0 },
            """
            UPDATE emails SET verified_at = \(now), code_hash = NULL, code_expires_at = NULL,
                is_primary = NOT EXISTS (SELECT 1 FROM emails WHERE user_id = \(userID) AND is_primary)
            WHERE user_id = \(userID) AND address_key = \(key) AND verified_at IS NULL
                AND code_hash = \(codeHash) AND code_expires_at > \(now)
            RETURNING 1
            """) > 0
    }

    public func userID(verifiedEmail address: String) async throws(StoreError) -> UUID? {
        let key = StoredEmail.key(of: address)
        return try await first("SELECT user_id FROM emails WHERE address_key = \(key) AND verified_at IS NOT NULL") {
            try $0.decode(UUID.self)
        }
    }

    public func setEmailRecoveryCode(address: String, codeHash: Data, expiresAt: Date) async throws(StoreError)
        -> StoredEmail?
    {
        try StoredValues.requireSHA256([codeHash], "an email code hash")
        let key = StoredEmail.key(of: address)
        return try await write { [self] client in
            try await client.first(
                """
                UPDATE emails SET code_hash = \(codeHash), code_expires_at = \(expiresAt)
                WHERE address_key = \(key) AND verified_at IS NOT NULL
                RETURNING user_id, address, verified_at, is_primary, created_at
                """,
                logger: logger
            ) { row in
                let (userID, address, verifiedAt, isPrimary, createdAt) = try row.decode(
                    (UUID, String, Date?, Bool, Date).self)
                return StoredEmail(
                    userID: userID, address: address, verifiedAt: verifiedAt, isPrimary: isPrimary, createdAt: createdAt
                )
            }
        }
    }

    public func consumeEmailRecoveryCode(address: String, codeHash: Data, now: Date) async throws(StoreError) -> UUID? {
        let key = StoredEmail.key(of: address)
        return try await write(recordingIf: { $0 != nil }) { [self] client in
            try await client.first(
                """
                UPDATE emails SET code_hash = NULL, code_expires_at = NULL
                WHERE address_key = \(key) AND verified_at IS NOT NULL AND code_hash = \(codeHash)
                    AND code_expires_at > \(now)
                RETURNING user_id
                """,
                logger: logger
            ) { try $0.decode(UUID.self) }
        }
    }

    public func removeEmail(_ address: String, ofUser userID: UUID) async throws(StoreError) {
        let key = StoredEmail.key(of: address)
        try await transaction { [self] connection in
            guard
                try await connection.execute(
                    "DELETE FROM emails WHERE user_id = \(userID) AND address_key = \(key) RETURNING 1", logger: logger
                ) > 0
            else { throw EmailRules.notFound }
            try await connection.execute(
                """
                UPDATE emails SET is_primary = true WHERE user_id = \(userID) AND address_key = (
                    SELECT address_key FROM emails WHERE user_id = \(userID) AND verified_at IS NOT NULL
                    ORDER BY created_at, address_key LIMIT 1)
                AND NOT EXISTS (SELECT 1 FROM emails WHERE user_id = \(userID) AND is_primary)
                """,
                logger: logger)
        }
    }

    public func makePrimaryEmail(_ address: String, ofUser userID: UUID) async throws(StoreError) {
        let key = StoredEmail.key(of: address)
        // The events pending go only with a change made.
        let changed = try await change(
            recordingIf: { $0 > 0 },
            """
            UPDATE emails SET is_primary = (address_key = \(key)) WHERE user_id = \(userID) AND EXISTS (
                SELECT 1 FROM emails WHERE user_id = \(userID) AND address_key = \(key) AND verified_at IS NOT NULL)
            RETURNING 1
            """)
        guard changed > 0 else { throw EmailRules.notVerified }
    }

    public func enqueueMail(_ mail: StoredMail, limit: Int) async throws(StoreError) -> Bool {
        try await change(
            """
            INSERT INTO mail_outbox (id, recipient, subject, body, created_at, attempts, next_attempt_at)
            SELECT \(mail.id), \(mail.recipient), \(mail.subject), \(mail.body), \(mail.createdAt),
                \(Int64(mail.attempts)), \(mail.nextAttemptAt)
            WHERE (SELECT count(*) FROM mail_outbox) < \(Int64(limit))
            RETURNING 1
            """) > 0
    }

    public func claimMail(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [StoredMail] {
        let leasedUntil = now.addingTimeInterval(lease)
        return try await write { [self] client in
            // SKIP LOCKED: instances claiming at once take different messages.
            try await client.all(
                """
                UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = \(leasedUntil)
                WHERE id IN (
                    SELECT id FROM mail_outbox WHERE next_attempt_at <= \(now) ORDER BY next_attempt_at
                    LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED)
                RETURNING id, recipient, subject, body, created_at, attempts, next_attempt_at
                """,
                logger: logger
            ) { row in
                let (id, recipient, subject, body, createdAt, attempts, next) = try row.decode(
                    (UUID, String, String, String, Date, Int64, Date).self)
                return StoredMail(
                    id: id, recipient: recipient, subject: subject, body: body, createdAt: createdAt,
                    attempts: Int(attempts), nextAttemptAt: next)
            }
        }
    }

    public func deleteMail(id: UUID) async throws(StoreError) {
        try await change("DELETE FROM mail_outbox WHERE id = \(id)")
    }

    public func rescheduleMail(id: UUID, at time: Date) async throws(StoreError) {
        try await change("UPDATE mail_outbox SET next_attempt_at = \(time) WHERE id = \(id)")
    }
}
