import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import LatchkeyStore

/// What a sign-in writes to SQLite's log: one page for each table and index its commit changes, so the tables it writes
/// keep no index they do not need (migration v8: spent tickets keyed by expiry, a session's passkey checked by triggers
/// instead of a foreign key with an index of its own; v16: sessions keyed by their token alone, with no rowid).
@Suite("SQLite sign-in writes: no index a sign-in does not need")
struct SQLiteSignInWritesTests {
    let scratch = ScratchDirectory(prefix: "latchkey-sign-in-writes")

    private static func signIn(_ credential: StoredCredential, count: UInt32, in store: SQLiteStore) async throws {
        let spent = try await store.commitAuthentication(
            spending: SpentTicket(id: "ticket-\(count)", expiresAt: Make.now.addingTimeInterval(300)),
            credentialID: credential.id, newSignCount: count + 1, backupEligible: true, backedUp: false,
            usedAt: Make.now,
            session: StoredSession(
                tokenHash: Make.bytes(32), userID: credential.userID, createdAt: Make.now,
                expiresAt: Make.now.addingTimeInterval(3600), credentialID: credential.id
            ),
            previousSignCount: count
        )
        #expect(spent)
    }

    /// A database at `path` migrated only up to `version`, holding `user` and their passkey `passkey`, then what `rows`
    /// writes as that version's tables have it.
    private static func olderDatabase(
        at path: String, upTo version: String, user: StoredUser, passkey: Data,
        _ rows: @escaping @Sendable (Database) throws -> Void
    ) async throws {
        let pool = try DatabasePool(path: path)
        try SQLiteSchema.migrator.migrate(pool, upTo: version)
        try await pool.write { db in
            try SQLiteStore.insert(user, into: db)
            try SQLiteInspection.insertCredential(id: passkey, of: user.id, into: db)
            try rows(db)
        }
    }

    @Test("a sign-in's commit writes five pages: the spent ticket, the credential, the session and its two indexes")
    func fivePagesPerSignIn() async throws {
        let path = scratch.path("store.sqlite")
        let store = try SQLiteStore(path: path)
        let user = try await store.createUser(named: "alice")
        let credential = Make.credential(of: user.id)
        try await store.addCredential(credential)
        try await Self.signIn(credential, count: 0, in: store)

        #expect(try await WALFrames.count(at: path, mode: SQLITE_CHECKPOINT_TRUNCATE) == 0)
        try await Self.signIn(credential, count: 1, in: store)
        // Before v8 the spent ticket's expiry index and the session's passkey index made it eight; before v16 the
        // session's rowid table and its key's index made it six.
        #expect(try await WALFrames.count(at: path) == 5)
        #expect(try await SQLiteInspection.indexes(of: "spent_tickets", in: store) == [])
        #expect(
            try await SQLiteInspection.indexes(of: "sessions", in: store) == [
                "sessions_expires_at", "sessions_user_created",
            ])
    }

    @Test(
        "the purge reads the spent tickets' primary key, and deleting a passkey finds its sessions by index"
    )
    func plans() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        let plans = [
            try await SQLiteInspection.plan(
                "DELETE FROM spent_tickets WHERE (expires_at, id) IN (SELECT expires_at, id FROM spent_tickets WHERE expires_at <= ? LIMIT 1000)",
                arguments: ["2026"], in: store
            ),
            try await SQLiteInspection.plan(
                "DELETE FROM sessions WHERE user_id = ? AND credential_id = ?", arguments: [Data([1]), Data([2])],
                in: store
            ),
        ]
        let searches = plans[0].filter { $0.hasPrefix("SEARCH") || $0.hasPrefix("SCAN") }
        #expect(searches.count == 2 && searches.allSatisfy { $0.contains("USING PRIMARY KEY") }, "\(plans[0])")
        // The sessions by their index, and nothing else: no table refers to a session.
        #expect(
            plans[1].count == 1
                && plans[1][0].contains("INDEX sessions_user_created (user_id=?)"), "\(plans[1])"
        )
    }

    @Test("an account's sessions are read in order from one index: the list and the cap sort nothing")
    func sessionsInAccountOrder() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        let list = try await SQLiteInspection.plan(
            SQLiteStore.accountSessions, arguments: [Data([1]), Make.now], in: store)
        // The cap's statement, as the trigger runs it; the index's entries carry the key, so it reads no row.
        let trigger = try await store.read { db in
            try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'sessions_cap'")
        }
        let body = try #require(trigger)
        #expect(!body.contains("count("), "the cap no longer counts first")
        let select = try #require(body.range(of: "SELECT token_hash").map { body[$0.lowerBound...] })
        let statement = try #require(select.range(of: ");").map { select[..<$0.lowerBound] })
        let cap = try await SQLiteInspection.plan(
            statement.replacingOccurrences(of: "NEW.user_id", with: "?"), in: store)
        // Before v16 both searched the (user, passkey) index and sorted in a temporary b-tree.
        #expect(list == ["SEARCH sessions USING INDEX sessions_user_created (user_id=?)"])
        #expect(cap == ["SEARCH sessions USING COVERING INDEX sessions_user_created (user_id=?)"])
    }

    @Test("a database made before v16 keeps its sessions whole, and its triggers still end, check and cap them")
    func upgradeFromV15() async throws {
        let path = scratch.path("store.sqlite")
        let user = Make.user()
        let passkey = Data([7])
        let kept = (0..<StoredSession.maximumPerAccount).map { index in
            var session = Make.session(of: user.id)
            session.createdAt = Make.now.addingTimeInterval(Double(index))
            session.credentialID = index.isMultiple(of: 2) ? passkey : nil
            session.verifiedAt = session.createdAt
            session.device = "Safari on macOS \(index)"
            session.network = "192.0.2.0/24"
            return session
        }
        try await Self.olderDatabase(
            at: path, upTo: "v15: refresh tokens sealed, not stored", user: user, passkey: passkey
        ) { db in
            for session in kept { try SQLiteStore.insert(session, into: db) }
            try db.execute(
                sql: "UPDATE sessions SET refresh_generation = 3 WHERE token_hash = ?", arguments: [kept[1].tokenHash])
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.sessions(ofUser: user.id, now: Make.now) == kept.reversed())
        #expect(
            try await store.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT refresh_generation FROM sessions WHERE token_hash = ?",
                    arguments: [kept[1].tokenHash])
            } == 3)
        #expect(
            try await SQLiteInspection.indexes(of: "sessions", in: store) == [
                "sessions_expires_at", "sessions_user_created",
            ])

        // The cap: one more ends the oldest.
        var newest = Make.session(of: user.id)
        newest.createdAt = Make.now.addingTimeInterval(Double(StoredSession.maximumPerAccount))
        try await store.createSession(newest)
        #expect(try await store.session(tokenHash: kept[0].tokenHash, now: Make.now) == nil)
        #expect(try await store.sessions(ofUser: user.id, now: Make.now).count == StoredSession.maximumPerAccount)
        // The passkey check: a session with a passkey the account does not have is refused.
        var stranger = Make.session(of: user.id)
        stranger.credentialID = Data([8])
        await expectStoreError(.notFound) { try await store.createSession(stranger) }
        // Deleting the passkey ends its sessions and keeps the others.
        try await store.deleteCredential(id: passkey, ofUser: user.id, keepingAnotherWayIn: false)
        let left = try await store.sessions(ofUser: user.id, now: Make.now)
        #expect(Set(left) == Set((kept.dropFirst() + [newest]).filter { $0.credentialID == nil }))
        #expect(try await store.purgeExpiredSessions(now: Make.now.addingTimeInterval(1_000_000)) == left.count)
    }

    @Test("a session with a passkey that is not its user's is refused, and nothing is written")
    func sessionPasskeyChecked() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        let alice = try await store.createUser(named: "alice")
        let bob = try await store.createUser(named: "bob")
        let bobs = Make.credential(of: bob.id)
        try await store.addCredential(bobs)
        for credentialID in [bobs.id, Make.bytes(16)] {
            let session = StoredSession(
                tokenHash: Make.bytes(32), userID: alice.id, createdAt: Make.now,
                expiresAt: Make.now.addingTimeInterval(60),
                credentialID: credentialID
            )
            await expectStoreError(.notFound) { try await store.createSession(session) }
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)
        }
    }

    @Test(
        "a database made before v8 keeps its spent tickets and sessions, and deleting a passkey still ends its sessions"
    )
    func upgradeFromV7() async throws {
        let path = scratch.path("store.sqlite")
        let user = Make.user()
        let passkey = Data([7])
        let withPasskey = StoredSession(
            tokenHash: Make.bytes(32), userID: user.id, createdAt: Make.now,
            expiresAt: Make.now.addingTimeInterval(3600),
            credentialID: passkey
        )
        let without = StoredSession(
            tokenHash: Make.bytes(32), userID: user.id, createdAt: Make.now,
            expiresAt: Make.now.addingTimeInterval(3600)
        )
        let live = SpentTicket(id: "live", expiresAt: Make.now.addingTimeInterval(300))
        try await Self.olderDatabase(
            at: path, upTo: "v7: credentials indexed in account order", user: user, passkey: passkey
        ) { db in
            // v7's columns (the insert of today names v9's too).
            for session in [withPasskey, without] {
                try db.execute(
                    sql: """
                        INSERT INTO sessions (token_hash, user_id, created_at, expires_at, credential_id)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        session.tokenHash, session.userID, session.createdAt, session.expiresAt,
                        session.credentialID,
                    ])
            }
            for ticket in [live, SpentTicket(id: "old", expiresAt: Make.now.addingTimeInterval(-1))] {
                try db.execute(
                    sql: "INSERT INTO spent_tickets (id, expires_at) VALUES (?, ?)",
                    arguments: [ticket.id, ticket.expiresAt])
            }
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.spendTicket(live) == false, "still spent")
        #expect(try await store.purgeSpentTickets(now: Make.now) == 1)
        #expect(try await store.spendTicket(live) == false)
        #expect(try await store.session(tokenHash: withPasskey.tokenHash, now: Make.now) == withPasskey)

        try await store.deleteCredential(id: passkey, ofUser: user.id, keepingAnotherWayIn: false)
        #expect(try await store.session(tokenHash: withPasskey.tokenHash, now: Make.now) == nil)
        #expect(try await store.session(tokenHash: without.tokenHash, now: Make.now) == without)
    }
}
