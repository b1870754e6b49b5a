import Foundation
import GRDB

// Reading records from SQLite rows (by column name) and the arguments that write them, in `StoreColumns` order.

extension StoredUser {
    init(sqliteRow row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            userHandle: try row.decode(forColumn: "user_handle"),
            name: try row.decode(forColumn: "name"),
            displayName: try row.decode(forColumn: "display_name"),
            createdAt: try row.decode(forColumn: "created_at")
        )
    }

    /// For `INSERT INTO users (\(StoreColumns.user), name_key, name_skeleton)`.
    var sqliteArguments: StatementArguments {
        [id, userHandle, name, displayName, createdAt, nameKey, NameSkeleton.of(name)]
    }
}

extension StoredCredential {
    init(sqliteRow row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            userID: try row.decode(forColumn: "user_id"),
            publicKey: try row.decode(forColumn: "public_key"),
            algorithm: try StoredValues.algorithm(row.decode(forColumn: "algorithm")),
            signCount: try StoredValues.signCount(row.decode(forColumn: "sign_count")),
            aaguid: try row.decode(forColumn: "aaguid"),
            transports: try SQLiteTransports.decode(row.decode(forColumn: "transports")),
            backupEligible: try row.decode(forColumn: "backup_eligible"),
            backedUp: try row.decode(forColumn: "backed_up"),
            attestationFormat: try row.decode(forColumn: "attestation_format"),
            userVerified: try row.decode(forColumn: "user_verified"),
            discoverable: try row.decode(forColumn: "discoverable"),
            label: try row.decode(forColumn: "label"),
            createdAt: try row.decode(forColumn: "created_at"),
            lastUsedAt: try row.decode(forColumn: "last_used_at")
        )
    }

    /// For `INSERT INTO credentials (\(StoreColumns.credential))`.
    var sqliteArguments: StatementArguments {
        get throws(StoreError) {
            [
                id, userID, publicKey, Int64(algorithm), Int64(signCount), aaguid, try SQLiteTransports.encode(transports),
                backupEligible, backedUp, attestationFormat, userVerified, discoverable, label, createdAt, lastUsedAt,
            ]
        }
    }
}

extension StoredCeremony {
    init(sqliteRow row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            kind: try StoredValues.ceremonyKind(row.decode(forColumn: "kind")),
            challenge: try row.decode(forColumn: "challenge"),
            userID: try row.decode(forColumn: "user_id"),
            payload: try row.decode(forColumn: "payload"),
            createdAt: try row.decode(forColumn: "created_at"),
            expiresAt: try row.decode(forColumn: "expires_at")
        )
    }

    /// For `INSERT INTO ceremonies (\(StoreColumns.ceremony))`.
    var sqliteArguments: StatementArguments {
        [id, kind.rawValue, challenge, userID, payload, createdAt, expiresAt]
    }
}

extension StoredSession {
    init(sqliteRow row: Row) throws {
        self.init(
            tokenHash: try row.decode(forColumn: "token_hash"),
            userID: try row.decode(forColumn: "user_id"),
            createdAt: try row.decode(forColumn: "created_at"),
            expiresAt: try row.decode(forColumn: "expires_at"),
            credentialID: try row.decode(forColumn: "credential_id")
        )
    }

    /// For `INSERT INTO sessions (\(StoreColumns.session))`.
    var sqliteArguments: StatementArguments {
        [tokenHash, userID, createdAt, expiresAt, credentialID]
    }
}

/// Transports are a JSON array of strings in SQLite (PostgreSQL has `text[]`).
enum SQLiteTransports {
    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    static func encode(_ transports: [String]) throws(StoreError) -> String {
        do {
            return String(decoding: try encoder.encode(transports), as: UTF8.self)
        } catch {
            throw StoreError(.invalidRecord, "the transports cannot be encoded as JSON")
        }
    }

    static func decode(_ json: String) throws(StoreError) -> [String] {
        do {
            return try decoder.decode([String].self, from: Data(json.utf8))
        } catch {
            throw StoreError(.corruptRecord, "stored transports are not a JSON array of strings")
        }
    }
}
