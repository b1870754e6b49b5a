import Foundation
import GRDB
import LatchkeyTestSupport
import Testing

@testable import LatchkeyStore

/// The account reads of every sign-in (``StoreColumns/accountByName``, ``StoreColumns/accountByCredential``) get an
/// account's credentials in order from an index (migration v7), instead of sorting them for every read.
@Suite("SQLite account reads: credentials in index order")
struct SQLiteAccountOrderTests {
    let scratch = ScratchDirectory(prefix: "latchkey-account-order")

    /// The query plan's lines for `sql`.
    private static func plan(_ sql: String, in store: SQLiteStore) async throws -> [String] {
        try await store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [Data([1])]).map { $0["detail"] as String }
        }
    }

    @Test("neither account read sorts: the credentials come from credentials_user_order in account order")
    func noSortInAccountReads() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        for sql in [StoreColumns.accountByName, StoreColumns.accountByCredential] {
            let plan = try await Self.plan(sql, in: store)
            #expect(plan.contains { $0.contains("credentials_user_order") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test("credentials made at the same moment read back by ID, after older ones")
    func tiesByID() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        let user = Make.user()
        try await store.createUser(user)
        let later = Make.now.addingTimeInterval(60)
        let ids = [Data([9, 9]), Data([1]), Data([5, 0, 0]), Data([5])]
        for id in ids { try await store.addCredential(Make.credential(of: user.id, id: id, createdAt: later)) }
        try await store.addCredential(Make.credential(of: user.id, id: Data([200]), createdAt: Make.now))
        let expected = [Data([200]), Data([1]), Data([5]), Data([5, 0, 0]), Data([9, 9])]
        #expect(try await store.account(named: user.name)?.credentials.map(\.id) == expected)
        #expect(try await store.account(ofCredential: Data([5]))?.credentials.map(\.id) == expected)
    }

    @Test("a database made before v7 gets the index and keeps its credentials")
    func upgradeFromV6() async throws {
        let path = scratch.path("store.sqlite")
        let user = Make.user()
        do {
            let pool = try DatabasePool(path: path)
            try SQLiteSchema.migrator.migrate(pool, upTo: "v6: spent tickets instead of stored ceremonies")
            try await pool.write { db in
                try SQLiteStore.insert(user, into: db)
                try db.execute(
                    sql: """
                        INSERT INTO credentials (id, user_id, public_key, algorithm, sign_count, aaguid, transports, backup_eligible,
                        backed_up, attestation_format, user_verified, created_at) VALUES (?, ?, ?, -7, 0, ?, '[]', 0, 0, 'none', 1, ?)
                        """,
                    arguments: [Data([7]), user.id, Data(repeating: 4, count: 77), UUID(), Make.now]
                )
            }
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.account(named: user.name)?.credentials.map(\.id) == [Data([7])])
        let indexes = try await store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'credentials' AND sql IS NOT NULL")
        }
        #expect(indexes == ["credentials_user_order"])
    }
}
