import Foundation
import GRDB

// The access-token part of ``SQLiteStore``.

extension SQLiteStore {
    public func signingKeys() async throws(StoreError) -> [StoredSigningKey] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT generation, key_id, sealed_private_key, public_jwk, created_at, signs_from
                    FROM signing_keys ORDER BY generation
                    """
            ).map { row in
                StoredSigningKey(
                    generation: row["generation"], keyID: row["key_id"], sealedPrivateKey: row["sealed_private_key"],
                    publicJWK: row["public_jwk"], createdAt: row["created_at"], signsFrom: row["signs_from"])
            }
        }
    }

    public func insertSigningKey(_ key: StoredSigningKey) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO signing_keys (generation, key_id, sealed_private_key, public_jwk, created_at, signs_from)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (generation) DO NOTHING
                    """,
                arguments: [
                    key.generation, key.keyID, key.sealedPrivateKey, key.publicJWK, key.createdAt, key.signsFrom,
                ])
            return db.changesCount > 0
        }
    }

    public func deleteSigningKeys(before generation: Int) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM signing_keys WHERE generation < ?", arguments: [generation])
        }
    }

    public func insertRefreshToken(_ token: StoredRefreshToken) async throws(StoreError) {
        try TokenRules.validate(token)
        try await write { db in try Self.insert(token, db: db) }
    }

    public func rotateRefreshToken(presented: Data, replacementHash: Data, now: Date) async throws(StoreError)
        -> StoredRefreshToken.Rotation
    {
        try TokenRules.validate(hash: replacementHash)
        return try await write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT r.family, r.session_token_hash, r.user_id, r.amr, r.auth_time, r.used_at
                        FROM refresh_tokens r JOIN sessions s ON s.token_hash = r.session_token_hash
                        WHERE r.token_hash = ? AND s.expires_at > ?
                        """,
                    arguments: [presented, now])
            else { return .invalid }
            let userID: UUID = row["user_id"]
            let sessionHash: Data = row["session_token_hash"]
            guard (row["used_at"] as Date?) == nil else {
                try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [sessionHash])
                return .reused(userID: userID)
            }
            try db.execute(
                sql: "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ?", arguments: [now, presented])
            let next = StoredRefreshToken(
                tokenHash: replacementHash, family: row["family"], sessionTokenHash: sessionHash, userID: userID,
                authenticationMethods: TokenRules.methods(row["amr"]), authenticatedAt: row["auth_time"],
                createdAt: now)
            try Self.insert(next, db: db)
            return .rotated(next)
        }
    }

    private static func insert(_ token: StoredRefreshToken, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO refresh_tokens (token_hash, family, session_token_hash, user_id, amr, auth_time, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                token.tokenHash, token.family, token.sessionTokenHash, token.userID,
                TokenRules.text(token.authenticationMethods), token.authenticatedAt, token.createdAt,
            ])
    }
}
