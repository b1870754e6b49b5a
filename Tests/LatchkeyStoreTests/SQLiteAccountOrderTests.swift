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

    @Test("neither account read sorts: the credentials come from credentials_user_order in account order")
    func noSortInAccountReads() async throws {
        let store = try SQLiteStore(path: scratch.path("store.sqlite"))
        for sql in [StoreColumns.accountByName, StoreColumns.accountByCredential] {
            let plan = try await SQLiteInspection.plan(sql, in: store)
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
                try SQLiteInspection.insertCredential(id: Data([7]), of: user.id, into: db)
            }
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.account(named: user.name)?.credentials.map(\.id) == [Data([7])])
        let indexes = try await SQLiteInspection.indexes(of: "credentials", in: store)
        #expect(indexes == ["credentials_user_order"])
    }
}
