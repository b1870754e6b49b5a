import Foundation
import GRDB

// Reading records from SQLite rows and the arguments that write them, in `StoreColumns` order. Accounts (a user with its
// credentials, one row per credential) are read by position; the other records by column name.

extension StoredUser {
    /// The user in a row's columns from `start` on, in ``StoreColumns/user`` order.
    init(sqliteRow row: Row, at start: Int = 0) throws {
        self.init(
            id: try row.decode(atIndex: start),
            userHandle: try row.decode(atIndex: start + 1),
            name: try row.decode(atIndex: start + 2),
            displayName: try row.decode(atIndex: start + 3),
            createdAt: try row.decode(atIndex: start + 4)
        )
    }

    /// For `INSERT INTO users (\(StoreColumns.user), name_key, name_skeleton)`.
    var sqliteArguments: StatementArguments {
        [id, userHandle, name, displayName, createdAt, nameKey, NameSkeleton.of(name)]
    }
}

extension StoredCredential {
    /// The credential in an account row's first columns, in ``StoreColumns/credential`` order.
    init(sqliteRow row: Row) throws {
        self.init(
            id: try row.decode(atIndex: 0),
            userID: try row.decode(atIndex: 1),
            publicKey: try row.decode(atIndex: 2),
            algorithm: try StoredValues.integer(row.decode(atIndex: 3), "algorithm"),
            signCount: try StoredValues.integer(row.decode(atIndex: 4), "sign count"),
            aaguid: try row.decode(atIndex: 5),
            transports: try SQLiteTransports.decode(row.decode(atIndex: 6)),
            backupEligible: try row.decode(atIndex: 7),
            backedUp: try row.decode(atIndex: 8),
            attestationFormat: try row.decode(atIndex: 9),
            userVerified: try row.decode(atIndex: 10),
            discoverable: try row.decode(atIndex: 11),
            label: try row.decode(atIndex: 12),
            createdAt: try row.decode(atIndex: 13),
            lastUsedAt: try row.decode(atIndex: 14)
        )
    }

    /// For `INSERT INTO credentials (\(StoreColumns.credential))`.
    var sqliteArguments: StatementArguments {
        get throws(StoreError) {
            [
                id, userID, publicKey, Int64(algorithm), Int64(signCount), aaguid,
                try SQLiteTransports.encode(transports),
                backupEligible, backedUp, attestationFormat, userVerified, discoverable, label, createdAt, lastUsedAt,
            ]
        }
    }
}

extension StoredSession {
    init(sqliteRow row: Row) throws {
        self.init(
            tokenHash: try row.decode(forColumn: "token_hash"),
            userID: try row.decode(forColumn: "user_id"),
            createdAt: try row.decode(forColumn: "created_at"),
            expiresAt: try row.decode(forColumn: "expires_at"),
            credentialID: try row.decode(forColumn: "credential_id"),
            verifiedAt: try row.decode(forColumn: "verified_at"),
            lastSeenAt: try row.decode(forColumn: "last_seen_at"),
            device: try row.decode(forColumn: "device"),
            network: try row.decode(forColumn: "network")
        )
    }

    /// For `INSERT INTO sessions (\(StoreColumns.session))`.
    var sqliteArguments: StatementArguments {
        [tokenHash, userID, createdAt, expiresAt, credentialID, verifiedAt, lastSeenAt, device, network]
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
        if let transports = simpleArray(json) { return transports }
        do {
            return try decoder.decode([String].self, from: Data(json.utf8))
        } catch {
            throw StoreError(.corruptRecord, "stored transports are not a JSON array of strings")
        }
    }

    /// The common case read without a JSON decoder: `[]` or `["usb","nfc"]`, strings without escapes or spaces.
    /// Nil for anything else, which the decoder then reads (or refuses).
    static func simpleArray(_ json: String) -> [String]? {
        let bytes = json.utf8
        guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        let inner = bytes.dropFirst().dropLast()
        if inner.isEmpty { return [] }
        var values: [String] = []
        for item in inner.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard item.count >= 2, item.first == UInt8(ascii: "\""), item.last == UInt8(ascii: "\"") else { return nil }
            let text = item.dropFirst().dropLast()
            guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
            else { return nil }
            values.append(String(decoding: text, as: UTF8.self))
        }
        return values
    }
}
