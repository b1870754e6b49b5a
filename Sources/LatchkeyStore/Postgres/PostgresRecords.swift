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

extension StoredCeremony {
    init(postgresRow row: PostgresRow) throws {
        let (id, kind, challenge, userID, payload, createdAt, expiresAt) =
            try row.decode((String, String, Data, UUID?, Data, Date, Date).self)
        self.init(
            id: id,
            kind: try StoredValues.ceremonyKind(kind),
            challenge: challenge,
            userID: userID,
            payload: payload,
            createdAt: createdAt,
            expiresAt: expiresAt
        )
    }

    var postgresInsert: PostgresQuery {
        get throws {
            try """
                INSERT INTO ceremonies (\(unescaped: StoreColumns.ceremony))
                VALUES (\(id), \(kind.rawValue), \(challenge), \(userID), \(payload), \(createdAt), \(expiresAt))
                """
        }
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
