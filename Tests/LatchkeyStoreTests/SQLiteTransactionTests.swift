import Foundation
import GRDB
import LatchkeyTestSupport
import Testing

@testable import LatchkeyStore

/// ``SQLiteStore``'s own write transaction (`SQLiteStore.transaction`): all of a write or none of it, and the
/// connection left ready for the next write whichever way the last one ended.
@Suite("SQLite write transactions: committed whole or rolled back")
struct SQLiteTransactionTests {
    let scratch = ScratchDirectory(prefix: "latchkey-transaction")

    private static let user = StoredUser(
        userHandle: Data([1, 2, 3]), name: "whole", displayName: "Whole", createdAt: Date(timeIntervalSince1970: 1_000)
    )

    /// Inserts a server secret, the simplest row a write can make.
    private static func insertSecret(_ name: String, into db: Database) throws {
        try db.execute(
            sql: "INSERT INTO server_secrets (name, value) VALUES (?, ?)",
            arguments: [name, Data(repeating: 7, count: 32)])
    }

    private static func secretCount(_ store: SQLiteStore) async throws -> Int {
        try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM server_secrets") ?? 0 }
    }

    @Test("writes commit synced to disk (synchronous = FULL), an unsynced one (a sign-in's) with NORMAL")
    func commitsAreSynced() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        @Sendable func synchronous(_ db: Database) throws -> Int? { try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        // GRDB's WAL set-up leaves NORMAL (1), under which the last commits can be lost with the machine.
        #expect(try await store.write { db in try synchronous(db) } == 2)
        #expect(try await store.write(.unsynced) { db in try synchronous(db) } == 1)
        #expect(try await store.write { db in try synchronous(db) } == 2)
    }

    @Test("a passkey sign-in's commit and a session's last-seen mark commit unsynced, the writes around them synced")
    func signInsAndLastSeenAreUnsynced() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        // What the writer's connection was left with by the last group it committed (reading it changes nothing).
        func lastCommit() throws -> Int? {
            try store.writer.inDatabase { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        }
        let user = Make.user()
        let credential = Make.credential(of: user.id)
        let session = Make.session(of: user.id)
        try await store.commitRegistration(credential, creating: user, session: session)
        #expect(try lastCommit() == 2)
        let signedIn = try await store.commitAuthentication(
            spending: Make.ticket(), credentialID: credential.id, newSignCount: 1, backupEligible: true,
            backedUp: false, usedAt: Make.now, session: Make.session(of: user.id), previousSignCount: 0)
        #expect(signedIn)
        #expect(try lastCommit() == 1)
        try await store.createSession(Make.session(of: user.id))
        #expect(try lastCommit() == 2)
        try await store.markSessionSeen(tokenHash: session.tokenHash, at: Make.now)
        #expect(try lastCommit() == 1)
    }

    @Test("a write whose body throws leaves nothing of what it did before the error")
    func bodyErrorRollsBack() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        struct Stop: Error {}
        await #expect(throws: StoreError.self) {
            try await store.write { db in
                try Self.insertSecret("first", into: db)
                throw Stop()
            }
        }
        #expect(try await Self.secretCount(store) == 0)
        try await store.write { db in try Self.insertSecret("after", into: db) }
        #expect(try await Self.secretCount(store) == 1)
    }

    @Test("a write whose COMMIT fails is rolled back, and the next write starts a transaction of its own")
    func commitErrorRollsBack() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        // A foreign key checked at COMMIT: the body succeeds, the commit is refused.
        await #expect(throws: StoreError.self) {
            try await store.write { db in
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                try Self.insertSecret("before", into: db)
                try db.execute(
                    sql:
                        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, '2026-01-01 00:00:00.000', '2026-01-02 00:00:00.000')",
                    arguments: [Data(repeating: 1, count: 32), Data(repeating: 9, count: 16)]
                )
            }
        }
        #expect(try await Self.secretCount(store) == 0)
        // Left open, this would fail with "cannot start a transaction within a transaction".
        try await store.createUser(Self.user)
        #expect(try await store.user(named: "whole") == Self.user)
    }
}
