import Foundation
import PostgresNIO

// Reading records from PostgreSQL rows, selected in `StoreColumns` order, and the statements that write them.

extension StoredUser {
    init(postgresRow row: PostgresRow) throws {
        let (id, userHandle, name, displayName, createdAt) = try row.decode((UUID, Data, String, String, Date).self)
        self.init(id: id, userHandle: userHandle, name: name, displayName: displayName, createdAt: createdAt)
    }

    var postgresInsert: PostgresQuery {
        get throws {
            try """
                INSERT INTO users (\(unescaped: StoreColumns.user), name_key, name_skeleton)
                VALUES (\(id), \(userHandle), \(name), \(displayName), \(createdAt), \(nameKey), \(NameSkeleton.of(name)))
                """
        }
    }
}

extension StoredCredential {
    init(postgresRow row: PostgresRow) throws {
        let (
            id, userID, publicKey, algorithm, signCount, aaguid, transports, backupEligible, backedUp,
            attestationFormat, userVerified, discoverable, label, createdAt, lastUsedAt
        ) = try row.decode(
            (Data, UUID, Data, Int64, Int64, UUID, [String], Bool, Bool, String, Bool, Bool?, String?, Date, Date?).self
        )
        self.init(
            id: id,
            userID: userID,
            publicKey: publicKey,
            algorithm: try StoredValues.algorithm(algorithm),
            signCount: try StoredValues.signCount(signCount),
            aaguid: aaguid,
            transports: transports,
            backupEligible: backupEligible,
            backedUp: backedUp,
            attestationFormat: attestationFormat,
            userVerified: userVerified,
            discoverable: discoverable,
            label: label,
            createdAt: createdAt,
            lastUsedAt: lastUsedAt
        )
    }

    var postgresInsert: PostgresQuery {
        get throws {
            try """
                INSERT INTO credentials (\(unescaped: StoreColumns.credential))
                VALUES (\(id), \(userID), \(publicKey), \(Int64(algorithm)), \(Int64(signCount)), \(aaguid), \(transports),
                        \(backupEligible), \(backedUp), \(attestationFormat), \(userVerified), \(discoverable), \(label),
                        \(createdAt), \(lastUsedAt))
                """
        }
    }
}

extension SpentTicket {
    /// Records the ticket as spent: one row (`RETURNING 1`) when it was not spent yet, none when it was.
    var postgresSpend: PostgresQuery {
        "INSERT INTO spent_tickets (id, expires_at) VALUES (\(id), \(expiresAt)) ON CONFLICT (id) DO NOTHING RETURNING 1"
    }
}

extension StoredSession {
    init(postgresRow row: PostgresRow) throws {
        let (tokenHash, userID, createdAt, expiresAt, credentialID) = try row.decode((Data, UUID, Date, Date, Data?).self)
        self.init(tokenHash: tokenHash, userID: userID, createdAt: createdAt, expiresAt: expiresAt, credentialID: credentialID)
    }

    var postgresInsert: PostgresQuery {
        get throws {
            try """
                INSERT INTO sessions (\(unescaped: StoreColumns.session))
                VALUES (\(tokenHash), \(userID), \(createdAt), \(expiresAt), \(credentialID))
                """
        }
    }
}
