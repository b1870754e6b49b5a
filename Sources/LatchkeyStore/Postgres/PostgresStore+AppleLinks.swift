import Foundation
import PostgresNIO

// The Sign in with Apple part of ``PostgresStore``.

extension PostgresStore {
    public func appleLink(subject: String) async throws(StoreError) -> StoredAppleLink? {
        try await first(Self.selectAppleLink(subject: subject), StoredAppleLink.init(postgresRow:))
    }

    public func appleLinks(ofUser userID: UUID) async throws(StoreError) -> [StoredAppleLink] {
        try await all(
            "SELECT \(unescaped: StoreColumns.appleLink) FROM apple_links WHERE user_id = \(userID) ORDER BY created_at, subject",
            StoredAppleLink.init(postgresRow:))
    }

    public func commitAppleLink(_ link: StoredAppleLink, creating user: StoredUser?, session: StoredSession?)
        async throws(StoreError)
    {
        try link.checkCommit(creating: user, session: session)
        try await transaction { [self] connection in
            if let user { try await connection.execute(user.postgresInsert, logger: logger) }
            try await connection.execute(link.postgresInsert, logger: logger)
            if let session { try await connection.execute(session.postgresInsert, logger: logger) }
        }
    }

    public func recordAppleSignIn(
        subject: String, sealedRefreshToken: Data?, clientID: String, session: StoredSession
    ) async throws(StoreError) -> StoredAppleLink {
        try session.validate()
        return try await transaction { [self] connection in
            if let sealedRefreshToken {
                try await connection.execute(
                    """
                    UPDATE apple_links SET sealed_refresh_token = \(sealedRefreshToken), client_id = \(clientID)
                    WHERE subject = \(subject)
                    """,
                    logger: logger
                )
            }
            try await connection.execute(
                "UPDATE apple_links SET consent_revoked_at = NULL WHERE subject = \(subject)", logger: logger)
            guard
                let link = try await connection.first(
                    Self.selectAppleLink(subject: subject), logger: logger, StoredAppleLink.init(postgresRow:))
            else { throw StoreError(.notFound, "the Apple ID is not linked") }
            try OutcomeChecks.checkSession(session, owner: link.userID)
            try await connection.execute(session.postgresInsert, logger: logger)
            return link
        }
    }

    public func endAppleLink(subject: String, deletingUserWithoutOtherWayIn: Bool) async throws(StoreError)
        -> EndedAppleLink?
    {
        try await transaction(recordingIf: { $0 != nil }) { [self] connection in
            guard
                let link = try await connection.first(
                    "DELETE FROM apple_links WHERE subject = \(subject) RETURNING \(unescaped: StoreColumns.appleLink)",
                    logger: logger, StoredAppleLink.init(postgresRow:)
                )
            else { return nil }
            let endedSessions = try await connection.execute(
                "DELETE FROM sessions WHERE user_id = \(link.userID) RETURNING 1", logger: logger
            )
            var deletedUser = false
            if deletingUserWithoutOtherWayIn {
                deletedUser =
                    try await connection.execute(
                        "DELETE FROM users WHERE id = \(link.userID) AND NOT \(unescaped: StoreColumns.hasWayIn) RETURNING 1",
                        logger: logger) > 0
            }
            return EndedAppleLink(link: link, endedSessions: endedSessions, deletedUser: deletedUser)
        }
    }

    public func revokeAppleConsent(subject: String, now: Date) async throws(StoreError) -> Int? {
        try await transaction(recordingIf: { $0 != nil }) { [self] connection in
            guard
                let userID = try await connection.first(
                    "UPDATE apple_links SET sealed_refresh_token = NULL, consent_revoked_at = \(now) WHERE subject = \(subject) RETURNING user_id",
                    logger: logger, { try $0.decode(UUID.self) }
                )
            else { return nil }
            return try await connection.execute(
                "DELETE FROM sessions WHERE user_id = \(userID) RETURNING 1", logger: logger)
        }
    }

    public func setAppleEmailEnabled(subject: String, enabled: Bool) async throws(StoreError) -> Bool {
        try await change(
            recordingIf: { $0 > 0 },
            "UPDATE apple_links SET email_enabled = \(enabled) WHERE subject = \(subject) RETURNING 1") > 0
    }

    public func appleNotificationSeen(id: String) async throws(StoreError) -> Bool {
        try await pool { [self] client in
            try await client.execute("SELECT 1 FROM apple_notifications WHERE id = \(id)", logger: logger) > 0
        }
    }

    public func recordAppleNotification(id: String, expiresAt: Date) async throws(StoreError) -> Bool {
        try await change(
            recordingIf: { $0 > 0 },
            """
            INSERT INTO apple_notifications (id, expires_at) VALUES (\(id), \(expiresAt))
            ON CONFLICT (id) DO NOTHING RETURNING 1
            """) > 0
    }

    public func insertAppleWebState(_ state: StoredAppleWebState) async throws(StoreError) {
        try state.validate()
        try await change(
            """
            INSERT INTO apple_web_states (\(unescaped: StoreColumns.appleWebState))
            VALUES (\(state.state), \(state.rawNonce), \(state.userID), \(state.createdAt), \(state.expiresAt))
            """)
    }

    public func consumeAppleWebState(_ state: String, now: Date) async throws(StoreError) -> StoredAppleWebState {
        let removed = try await write { [self] client in
            try await client.first(
                "DELETE FROM apple_web_states WHERE state = \(state) RETURNING \(unescaped: StoreColumns.appleWebState)",
                logger: logger
            ) { row in
                let (state, rawNonce, userID, createdAt, expiresAt) = try row.decode(
                    (String, String, UUID?, Date, Date).self)
                return StoredAppleWebState(
                    state: state, rawNonce: rawNonce, userID: userID, createdAt: createdAt, expiresAt: expiresAt)
            }
        }
        guard let removed else { throw StoreError(.notFound, "no pending Sign in with Apple flow with this state") }
        return try removed.requireLive(at: now)
    }

    public func insertAppleNonce(_ nonce: StoredAppleNonce) async throws(StoreError) {
        try nonce.validate()
        try await change(
            "INSERT INTO apple_nonces (nonce, created_at, expires_at) VALUES (\(nonce.nonce), \(nonce.createdAt), \(nonce.expiresAt))"
        )
    }

    public func recordAppleTokenUse(
        subject: String, nonceHash: String, expiresAt: Date, consumingNonce nonce: String?, now: Date
    ) async throws(StoreError) {
        // Any throw rolls the transaction back, so a refused use changes nothing. The nonce's DELETE … RETURNING
        // and the use's primary key decide between concurrent callers.
        try await transaction { [self] connection in
            let seen = try await connection.execute(
                "SELECT 1 FROM apple_token_uses WHERE subject = \(subject) AND nonce_hash = \(nonceHash)",
                logger: logger
            )
            if seen > 0 { throw AppleTokenUseErrors.replayed }
            if let nonce {
                guard
                    let nonceExpiry = try await connection.first(
                        "DELETE FROM apple_nonces WHERE nonce = \(nonce) RETURNING expires_at", logger: logger,
                        { try $0.decode(Date.self) }
                    )
                else { throw AppleTokenUseErrors.unknownNonce }
                guard now < nonceExpiry else { throw AppleTokenUseErrors.expiredNonce }
            }
            let inserted = try await connection.execute(
                """
                INSERT INTO apple_token_uses (subject, nonce_hash, expires_at) VALUES (\(subject), \(nonceHash), \(expiresAt))
                ON CONFLICT DO NOTHING RETURNING 1
                """,
                logger: logger
            )
            guard inserted > 0 else { throw AppleTokenUseErrors.replayed }
        }
    }

    public func purgeExpiredAppleRecords(now: Date) async throws(StoreError) -> Int {
        try await transaction { [self] connection in
            var purged = 0
            for table in StoreColumns.expiringAppleTables {
                purged += try await connection.execute(
                    "DELETE FROM \(unescaped: table) WHERE expires_at <= \(now) RETURNING 1", logger: logger)
            }
            return purged
        }
    }

    private static func selectAppleLink(subject: String) -> PostgresQuery {
        "SELECT \(unescaped: StoreColumns.appleLink) FROM apple_links WHERE subject = \(subject)"
    }
}

extension StoredAppleLink {
    init(postgresRow row: PostgresRow) throws {
        let (
            subject, userID, clientID, sealedRefreshToken, email, isPrivateEmail, emailEnabled, createdAt,
            emailVerified, consentRevokedAt
        ) =
            try row.decode((String, UUID, String, Data?, String?, Bool, Bool, Date, Bool, Date?).self)
        self.init(
            subject: subject, userID: userID, clientID: clientID, sealedRefreshToken: sealedRefreshToken, email: email,
            isPrivateEmail: isPrivateEmail, emailEnabled: emailEnabled, createdAt: createdAt,
            emailVerified: emailVerified, consentRevokedAt: consentRevokedAt
        )
    }

    var postgresInsert: PostgresQuery {
        get throws {
            try """
            INSERT INTO apple_links (\(unescaped: StoreColumns.appleLink))
            VALUES (\(subject), \(userID), \(clientID), \(sealedRefreshToken), \(email), \(isPrivateEmail), \(emailEnabled),
                    \(createdAt), \(emailVerified), \(consentRevokedAt))
            """
        }
    }
}
