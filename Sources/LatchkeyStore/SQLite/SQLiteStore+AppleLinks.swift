import Foundation
import GRDB

// The Sign in with Apple part of ``SQLiteStore``.

extension SQLiteStore {
    public func appleLink(subject: String) async throws(StoreError) -> StoredAppleLink? {
        try await read { db in try Self.fetchAppleLink(db, subject: subject) }
    }

    public func appleLinks(ofUser userID: UUID) async throws(StoreError) -> [StoredAppleLink] {
        try await all(
            "SELECT \(StoreColumns.appleLink) FROM apple_links WHERE user_id = ? ORDER BY created_at, subject",
            [userID],
            StoredAppleLink.init(sqliteRow:))
    }

    public func commitAppleLink(_ link: StoredAppleLink, creating user: StoredUser?, session: StoredSession?)
        async throws(StoreError)
    {
        try link.checkCommit(creating: user, session: session)
        try await write { db in
            if let user { try Self.insert(user, into: db) }
            try db.execute(
                sql: "INSERT INTO apple_links (\(StoreColumns.appleLink)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: link.sqliteArguments
            )
            if let session { try Self.insert(session, into: db) }
        }
    }

    public func recordAppleSignIn(
        subject: String, sealedRefreshToken: Data?, clientID: String, session: StoredSession
    ) async throws(StoreError) -> StoredAppleLink {
        try session.validate()
        return try await write { db in
            if let sealedRefreshToken {
                try db.execute(
                    sql: "UPDATE apple_links SET sealed_refresh_token = ?, client_id = ? WHERE subject = ?",
                    arguments: [sealedRefreshToken, clientID, subject]
                )
            }
            try db.execute(
                sql: "UPDATE apple_links SET consent_revoked_at = NULL WHERE subject = ?", arguments: [subject])
            guard let link = try Self.fetchAppleLink(db, subject: subject) else {
                throw StoreError(.notFound, "the Apple ID is not linked")
            }
            try OutcomeChecks.checkSession(session, owner: link.userID)
            try Self.insert(session, into: db)
            return link
        }
    }

    public func endAppleLink(subject: String, deletingUserWithoutOtherWayIn: Bool) async throws(StoreError)
        -> EndedAppleLink?
    {
        try await write(recordingIf: { $0 != nil }) { db in
            guard
                let link = try Row.fetchOne(
                    db, sql: "DELETE FROM apple_links WHERE subject = ? RETURNING \(StoreColumns.appleLink)",
                    arguments: [subject]
                ).map(StoredAppleLink.init(sqliteRow:))
            else { return nil }
            try db.execute(sql: "DELETE FROM sessions WHERE user_id = ?", arguments: [link.userID])
            let endedSessions = db.changesCount
            var deletedUser = false
            if deletingUserWithoutOtherWayIn {
                try db.execute(
                    sql: "DELETE FROM users WHERE id = ? AND NOT \(StoreColumns.hasWayIn)", arguments: [link.userID])
                deletedUser = db.changesCount > 0
            }
            return EndedAppleLink(link: link, endedSessions: endedSessions, deletedUser: deletedUser)
        }
    }

    public func revokeAppleConsent(subject: String, now: Date) async throws(StoreError) -> Int? {
        try await write(recordingIf: { $0 != nil }) { db in
            guard
                let userID = try UUID.fetchOne(
                    db,
                    sql:
                        "UPDATE apple_links SET sealed_refresh_token = NULL, consent_revoked_at = ? WHERE subject = ? RETURNING user_id",
                    arguments: [now, subject]
                )
            else { return nil }
            try db.execute(sql: "DELETE FROM sessions WHERE user_id = ?", arguments: [userID])
            return db.changesCount
        }
    }

    public func setAppleEmailEnabled(subject: String, enabled: Bool) async throws(StoreError) -> Bool {
        try await change(
            "UPDATE apple_links SET email_enabled = ? WHERE subject = ?", [enabled, subject], recordingIf: { $0 > 0 })
            > 0
    }

    public func appleNotificationSeen(id: String) async throws(StoreError) -> Bool {
        try await first("SELECT 1 FROM apple_notifications WHERE id = ?", [id]) { _ in true } ?? false
    }

    public func recordAppleNotification(id: String, expiresAt: Date) async throws(StoreError) -> Bool {
        try await change(
            "INSERT INTO apple_notifications (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
            [id, expiresAt], recordingIf: { $0 > 0 }) > 0
    }

    public func insertAppleWebState(_ state: StoredAppleWebState) async throws(StoreError) {
        try state.validate()
        try await change(
            "INSERT INTO apple_web_states (\(StoreColumns.appleWebState)) VALUES (?, ?, ?, ?, ?)",
            [state.state, state.rawNonce, state.userID, state.createdAt, state.expiresAt])
    }

    public func consumeAppleWebState(_ state: String, now: Date) async throws(StoreError) -> StoredAppleWebState {
        let removed = try await write { db in
            try Row.fetchOne(
                db, sql: "DELETE FROM apple_web_states WHERE state = ? RETURNING \(StoreColumns.appleWebState)",
                arguments: [state]
            ).map { row in
                StoredAppleWebState(
                    state: try row.decode(forColumn: "state"), rawNonce: try row.decode(forColumn: "raw_nonce"),
                    userID: try row.decode(forColumn: "user_id"), createdAt: try row.decode(forColumn: "created_at"),
                    expiresAt: try row.decode(forColumn: "expires_at")
                )
            }
        }
        guard let removed else { throw StoreError(.notFound, "no pending Sign in with Apple flow with this state") }
        return try removed.requireLive(at: now)
    }

    public func insertAppleNonce(_ nonce: StoredAppleNonce) async throws(StoreError) {
        try nonce.validate()
        try await change(
            "INSERT INTO apple_nonces (nonce, created_at, expires_at) VALUES (?, ?, ?)",
            [nonce.nonce, nonce.createdAt, nonce.expiresAt])
    }

    public func recordAppleTokenUse(
        subject: String, nonceHash: String, expiresAt: Date, consumingNonce nonce: String?, now: Date
    ) async throws(StoreError) {
        // Any throw rolls the transaction back, so a refused use changes nothing.
        try await write { db in
            let seen =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM apple_token_uses WHERE subject = ? AND nonce_hash = ?)",
                    arguments: [subject, nonceHash]
                ) ?? false
            if seen { throw AppleTokenUseErrors.replayed }
            if let nonce {
                guard
                    let nonceExpiry = try Date.fetchOne(
                        db, sql: "DELETE FROM apple_nonces WHERE nonce = ? RETURNING expires_at", arguments: [nonce]
                    )
                else { throw AppleTokenUseErrors.unknownNonce }
                guard now < nonceExpiry else { throw AppleTokenUseErrors.expiredNonce }
            }
            try db.execute(
                sql:
                    "INSERT INTO apple_token_uses (subject, nonce_hash, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [subject, nonceHash, expiresAt]
            )
            guard db.changesCount > 0 else { throw AppleTokenUseErrors.replayed }
        }
    }

    public func purgeExpiredAppleRecords(now: Date) async throws(StoreError) -> Int {
        var purged = 0
        for table in StoreColumns.expiringAppleTables {
            purged += try await purge(table, where: "expires_at <= ?", now)
        }
        return purged
    }

    private static func fetchAppleLink(_ db: Database, subject: String) throws -> StoredAppleLink? {
        try Row.fetchOne(
            db, sql: "SELECT \(StoreColumns.appleLink) FROM apple_links WHERE subject = ?", arguments: [subject]
        )
        .map(StoredAppleLink.init(sqliteRow:))
    }
}

extension StoredAppleLink {
    init(sqliteRow row: Row) throws {
        self.init(
            subject: try row.decode(forColumn: "subject"),
            userID: try row.decode(forColumn: "user_id"),
            clientID: try row.decode(forColumn: "client_id"),
            sealedRefreshToken: try row.decode(forColumn: "sealed_refresh_token"),
            email: try row.decode(forColumn: "email"),
            isPrivateEmail: try row.decode(forColumn: "is_private_email"),
            emailEnabled: try row.decode(forColumn: "email_enabled"),
            createdAt: try row.decode(forColumn: "created_at"),
            emailVerified: try row.decode(forColumn: "email_verified"),
            consentRevokedAt: try row.decode(forColumn: "consent_revoked_at")
        )
    }

    /// For `INSERT INTO apple_links (\(StoreColumns.appleLink))`.
    var sqliteArguments: StatementArguments {
        [
            subject, userID, clientID, sealedRefreshToken, email, isPrivateEmail, emailEnabled, createdAt,
            emailVerified, consentRevokedAt,
        ]
    }
}
