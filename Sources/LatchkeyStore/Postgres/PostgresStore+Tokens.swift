import Foundation
import PostgresNIO

// The access-token part of ``PostgresStore``.

extension PostgresStore {
    public func signingKeys() async throws(StoreError) -> [StoredSigningKey] {
        try await all(
            """
            SELECT generation, key_id, sealed_private_key, public_jwk, created_at, signs_from
            FROM signing_keys ORDER BY generation
            """
        ) { row in
            let (generation, keyID, sealed, jwk, createdAt, signsFrom) = try row.decode(
                (Int64, String, Data, String, Date, Date).self)
            return StoredSigningKey(
                generation: Int(generation), keyID: keyID, sealedPrivateKey: sealed, publicJWK: jwk,
                createdAt: createdAt, signsFrom: signsFrom)
        }
    }

    public func insertSigningKey(_ key: StoredSigningKey) async throws(StoreError) -> Bool {
        try await change(
            """
            INSERT INTO signing_keys (generation, key_id, sealed_private_key, public_jwk, created_at, signs_from)
            VALUES (\(Int64(key.generation)), \(key.keyID), \(key.sealedPrivateKey), \(key.publicJWK),
                \(key.createdAt), \(key.signsFrom))
            ON CONFLICT (generation) DO NOTHING RETURNING 1
            """) > 0
    }

    public func deleteSigningKeys(before generation: Int) async throws(StoreError) {
        try await change("DELETE FROM signing_keys WHERE generation < \(Int64(generation))")
    }

    public func spendRefreshToken(session sessionTokenHash: Data, generation: Int, now: Date) async throws(StoreError)
        -> RefreshTokenSpending
    {
        // Two statements: of concurrent spends the second waits for the first's row lock, finds the generation moved
        // on, and its DELETE (a statement of its own, so it sees the first's commit) ends the session.
        try await transaction { [self] connection in
            if let userID = try await connection.first(
                """
                UPDATE sessions SET refresh_generation = refresh_generation + 1
                WHERE token_hash = \(sessionTokenHash) AND refresh_generation = \(Int64(generation))
                    AND expires_at > \(now)
                RETURNING user_id
                """,
                logger: logger, { try $0.decode(UUID.self) })
            {
                return .rotated(userID: userID)
            }
            if let userID = try await connection.first(
                """
                DELETE FROM sessions
                WHERE token_hash = \(sessionTokenHash) AND refresh_generation > \(Int64(generation))
                    AND expires_at > \(now)
                RETURNING user_id
                """,
                logger: logger, { try $0.decode(UUID.self) })
            {
                return .reused(userID: userID)
            }
            return .invalid
        }
    }
}
