import Foundation
import PostgresNIO

extension PostgresStore {
    public func replaceRecoveryCodes(ofUser userID: UUID, hashes: [Data], now: Date) async throws(StoreError) {
        try StoredValues.requireSHA256(hashes, "a recovery code hash")
        try await transaction { [self] connection in
            try await connection.execute("DELETE FROM recovery_codes WHERE user_id = \(userID)", logger: logger)
            for hash in hashes {
                try await connection.execute(
                    "INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (\(userID), \(hash), \(now))",
                    logger: logger)
            }
        }
    }

    public func recoveryCodeCount(ofUser userID: UUID) async throws(StoreError) -> Int {
        let count = try await first("SELECT count(*) FROM recovery_codes WHERE user_id = \(userID)") {
            Int(try $0.decode(Int64.self))
        }
        return count ?? 0
    }

    public func consumeRecoveryCode(ofUser userID: UUID, hash: Data) async throws(StoreError) -> Bool {
        try await change(
            recordingIf: { $0 > 0 },
            "DELETE FROM recovery_codes WHERE user_id = \(userID) AND code_hash = \(hash) RETURNING 1") > 0
    }

    public func insertRecoveryLink(tokenHash: Data, ofUser userID: UUID, expiresAt: Date) async throws(StoreError) {
        try StoredValues.requireSHA256([tokenHash], "a recovery link token hash")
        try await change(
            "INSERT INTO recovery_links (token_hash, user_id, expires_at) VALUES (\(tokenHash), \(userID), \(expiresAt))"
        )
    }

    public func consumeRecoveryLink(tokenHash: Data, now: Date) async throws(StoreError) -> UUID? {
        try await write(recordingIf: { $0 != nil }) { [self] client in
            try await client.first(
                "DELETE FROM recovery_links WHERE token_hash = \(tokenHash) AND expires_at > \(now) RETURNING user_id",
                logger: logger
            ) { try $0.decode(UUID.self) }
        }
    }

    public func purgeExpiredRecoveryLinks(now: Date) async throws(StoreError) -> Int {
        try await change("DELETE FROM recovery_links WHERE expires_at <= \(now) RETURNING 1")
    }
}
