import Foundation
import PostgresNIO

// The access-token part of ``PostgresStore``.

extension PostgresStore {
    public func signingKeys() async throws(StoreError) -> [StoredSigningKey] {
        try await pool { [self] client in
            try await client.all(
                """
                SELECT generation, key_id, sealed_private_key, public_jwk, created_at, signs_from
                FROM signing_keys ORDER BY generation
                """,
                logger: logger
            ) { row in
                let (generation, keyID, sealed, jwk, createdAt, signsFrom) = try row.decode(
                    (Int64, String, Data, String, Date, Date).self)
                return StoredSigningKey(
                    generation: Int(generation), keyID: keyID, sealedPrivateKey: sealed, publicJWK: jwk,
                    createdAt: createdAt, signsFrom: signsFrom)
            }
        }
    }

    public func insertSigningKey(_ key: StoredSigningKey) async throws(StoreError) -> Bool {
        try await write { [self] client in
            try await client.execute(
                """
                INSERT INTO signing_keys (generation, key_id, sealed_private_key, public_jwk, created_at, signs_from)
                VALUES (\(Int64(key.generation)), \(key.keyID), \(key.sealedPrivateKey), \(key.publicJWK),
                    \(key.createdAt), \(key.signsFrom))
                ON CONFLICT (generation) DO NOTHING RETURNING 1
                """,
                logger: logger) > 0
        }
    }

    public func deleteSigningKeys(before generation: Int) async throws(StoreError) {
        try await write { [self] client in
            try await client.execute(
                "DELETE FROM signing_keys WHERE generation < \(Int64(generation))", logger: logger)
        }
    }

    public func insertRefreshToken(_ token: StoredRefreshToken) async throws(StoreError) {
        try TokenRules.validate(token)
        try await write { [self] client in
            try await client.execute(try Self.insertion(token), logger: logger)
        }
    }

    public func rotateRefreshToken(presented: Data, replacementHash: Data, now: Date) async throws(StoreError)
        -> StoredRefreshToken.Rotation
    {
        try TokenRules.validate(hash: replacementHash)
        return try await transaction { [self] connection in
            // FOR UPDATE: concurrent uses of one token take turns; the second sees it used.
            guard
                let (family, sessionHash, userID, amr, authTime, usedAt) = try await connection.first(
                    """
                    SELECT r.family, r.session_token_hash, r.user_id, r.amr, r.auth_time, r.used_at
                    FROM refresh_tokens r JOIN sessions s ON s.token_hash = r.session_token_hash
                    WHERE r.token_hash = \(presented) AND s.expires_at > \(now)
                    FOR UPDATE OF r
                    """,
                    logger: logger,
                    { try $0.decode((Data, Data, UUID, String, Date, Date?).self) })
            else { return .invalid }
            guard usedAt == nil else {
                try await connection.execute("DELETE FROM sessions WHERE token_hash = \(sessionHash)", logger: logger)
                return .reused(userID: userID)
            }
            try await connection.execute(
                "UPDATE refresh_tokens SET used_at = \(now) WHERE token_hash = \(presented)", logger: logger)
            let next = StoredRefreshToken(
                tokenHash: replacementHash, family: family, sessionTokenHash: sessionHash, userID: userID,
                authenticationMethods: TokenRules.methods(amr), authenticatedAt: authTime, createdAt: now)
            try await connection.execute(try Self.insertion(next), logger: logger)
            return .rotated(next)
        }
    }

    private static func insertion(_ token: StoredRefreshToken) throws -> PostgresQuery {
        try """
        INSERT INTO refresh_tokens (token_hash, family, session_token_hash, user_id, amr, auth_time, created_at)
        VALUES (\(token.tokenHash), \(token.family), \(token.sessionTokenHash), \(token.userID),
            \(TokenRules.text(token.authenticationMethods)), \(token.authenticatedAt), \(token.createdAt))
        """
    }
}
