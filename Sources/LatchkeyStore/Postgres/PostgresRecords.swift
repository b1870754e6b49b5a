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
    /// ``StoreColumns/credential``'s columns, each optional: an account's row has none when the account has no
    /// credentials (``StoreColumns/account(where:)`` is a `LEFT JOIN`).
    typealias PostgresColumns = (
        Data?, UUID?, Data?, Int64?, Int64?, UUID?, [String]?, Bool?, Bool?, String?, Bool?, Bool?, String?, Date?,
        Date?
    )

    init(postgresRow row: PostgresRow) throws {
        guard let credential = try Self(postgresColumns: row.decode(PostgresColumns.self)) else {
            throw StoreError(.corruptRecord, "a credential row has no ID")
        }
        self = credential
    }

    /// The credential in `columns`; nil when they are all NULL (no credential), and ``StoreError/Code/corruptRecord``
    /// when a required one is NULL.
    init?(postgresColumns columns: PostgresColumns) throws {
        let (
            id, userID, publicKey, algorithm, signCount, aaguid, transports, backupEligible, backedUp,
            attestationFormat, userVerified, discoverable, label, createdAt, lastUsedAt
        ) = columns
        guard let id else { return nil }
        guard let userID, let publicKey, let algorithm, let signCount, let aaguid, let transports, let backupEligible,
            let backedUp, let attestationFormat, let userVerified, let createdAt
        else { throw StoreError(.corruptRecord, "a credential row lacks a required column") }
        self.init(
            id: id,
            userID: userID,
            publicKey: publicKey,
            algorithm: try StoredValues.integer(algorithm, "algorithm"),
            signCount: try StoredValues.integer(signCount, "sign count"),
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

extension StoredAccount {
    /// The account in the rows of ``StoreColumns/account(where:)`` (a row per credential, oldest first: the
    /// credential's columns, NULL for an account without one, then the user's); nil for no rows. PostgresNIO decodes a
    /// row's columns from the first on, so the row's types are spelled out here: ``StoredCredential/PostgresColumns``
    /// then ``StoreColumns/user``'s.
    init?(postgresRows rows: [PostgresRow]) throws {
        var user: StoredUser?
        var credentials: [StoredCredential] = []
        for row in rows {
            let (
                c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, id, userHandle, name, displayName,
                createdAt
            ) = try row.decode(
                (
                    Data?, UUID?, Data?, Int64?, Int64?, UUID?, [String]?, Bool?, Bool?, String?, Bool?, Bool?, String?,
                    Date?, Date?,
                    UUID, Data, String, String, Date
                ).self
            )
            if user == nil {
                user = StoredUser(
                    id: id, userHandle: userHandle, name: name, displayName: displayName, createdAt: createdAt)
            }
            if let credential = try StoredCredential(
                postgresColumns: (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14))
            {
                credentials.append(credential)
            }
        }
        guard let user else { return nil }
        self.init(user: user, credentials: credentials)
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
        let (tokenHash, userID, createdAt, expiresAt, credentialID, verifiedAt, lastSeenAt, device, network) =
            try row.decode((Data, UUID, Date, Date, Data?, Date?, Date?, String?, String?).self)
        self.init(
            tokenHash: tokenHash, userID: userID, createdAt: createdAt, expiresAt: expiresAt,
            credentialID: credentialID, verifiedAt: verifiedAt, lastSeenAt: lastSeenAt, device: device, network: network
        )
    }

    var postgresInsert: PostgresQuery {
        get throws {
            try """
            INSERT INTO sessions (\(unescaped: StoreColumns.session))
            VALUES (
                \(tokenHash), \(userID), \(createdAt), \(expiresAt), \(credentialID), \(verifiedAt), \(lastSeenAt),
                \(device), \(network)
            )
            """
        }
    }
}
