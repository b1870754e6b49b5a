import Foundation
import GRDB

extension SQLiteStore {
    public func replaceRecoveryCodes(ofUser userID: UUID, hashes: [Data], now: Date) async throws(StoreError) {
        try StoredValues.requireSHA256(hashes, "a recovery code hash")
        try await write { db in
            try db.execute(sql: "DELETE FROM recovery_codes WHERE user_id = ?", arguments: [userID])
            for hash in hashes {
                try db.execute(
                    sql: "INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)",
                    arguments: [userID, hash, now])
            }
        }
    }

    public func recoveryCodeCount(ofUser userID: UUID) async throws(StoreError) -> Int {
        try await first("SELECT count(*) FROM recovery_codes WHERE user_id = ?", [userID]) { try $0.decode(atIndex: 0) }
            ?? 0
    }

    public func consumeRecoveryCode(ofUser userID: UUID, hash: Data) async throws(StoreError) -> Bool {
        try await change(
            "DELETE FROM recovery_codes WHERE user_id = ? AND code_hash = ?", [userID, hash], recordingIf: { $0 > 0 })
            > 0
    }

    public func insertRecoveryLink(tokenHash: Data, ofUser userID: UUID, expiresAt: Date) async throws(StoreError) {
        try StoredValues.requireSHA256([tokenHash], "a recovery link token hash")
        try await change(
            "INSERT INTO recovery_links (token_hash, user_id, expires_at) VALUES (?, ?, ?)",
            [tokenHash, userID, expiresAt])
    }

    public func consumeRecoveryLink(tokenHash: Data, now: Date) async throws(StoreError) -> UUID? {
        try await write(recordingIf: { $0 != nil }) { db in
            try UUID.fetchOne(
                db, sql: "DELETE FROM recovery_links WHERE token_hash = ? AND expires_at > ? RETURNING user_id",
                arguments: [tokenHash, now])
        }
    }

    public func purgeExpiredRecoveryLinks(now: Date) async throws(StoreError) -> Int {
        try await purge("recovery_links", where: "expires_at <= ?", now)
    }
}
