import Foundation
import GRDB

// The access-token part of ``SQLiteStore``.

extension SQLiteStore {
    public func signingKeys() async throws(StoreError) -> [StoredSigningKey] {
        try await all(
            """
            SELECT generation, key_id, sealed_private_key, public_jwk, created_at, signs_from
            FROM signing_keys ORDER BY generation
            """
        ) { row in
            StoredSigningKey(
                generation: row["generation"], keyID: row["key_id"], sealedPrivateKey: row["sealed_private_key"],
                publicJWK: row["public_jwk"], createdAt: row["created_at"], signsFrom: row["signs_from"])
        }
    }

    public func insertSigningKey(_ key: StoredSigningKey) async throws(StoreError) -> Bool {
        try await change(
            """
            INSERT INTO signing_keys (generation, key_id, sealed_private_key, public_jwk, created_at, signs_from)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (generation) DO NOTHING
            """,
            [
                key.generation, key.keyID, key.sealedPrivateKey, key.publicJWK, key.createdAt, key.signsFrom,
            ]) > 0
    }

    public func deleteSigningKeys(before generation: Int) async throws(StoreError) {
        try await change("DELETE FROM signing_keys WHERE generation < ?", [generation])
    }

    public func spendRefreshToken(session sessionTokenHash: Data, generation: Int, now: Date) async throws(StoreError)
        -> RefreshTokenSpending
    {
        try await write { db in
            if let userID = try UUID.fetchOne(
                db,
                sql: """
                    UPDATE sessions SET refresh_generation = refresh_generation + 1
                    WHERE token_hash = ? AND refresh_generation = ? AND expires_at > ? RETURNING user_id
                    """,
                arguments: [sessionTokenHash, generation, now])
            {
                return .rotated(userID: userID)
            }
            if let userID = try UUID.fetchOne(
                db,
                sql: """
                    DELETE FROM sessions
                    WHERE token_hash = ? AND refresh_generation > ? AND expires_at > ? RETURNING user_id
                    """,
                arguments: [sessionTokenHash, generation, now])
            {
                return .reused(userID: userID)
            }
            return .invalid
        }
    }
}
