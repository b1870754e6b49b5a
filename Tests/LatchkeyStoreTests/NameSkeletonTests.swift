import Foundation
import GRDB
import LatchkeyTestSupport
import Testing

@testable import LatchkeyStore

/// UTS #39 skeletons of account names, and the store's look-up of look-alike names (issue 14, finding 5).
@Suite("Name skeletons")
struct NameSkeletonTests {
    @Test func lookAlikesShareASkeleton() {
        let alice = NameSkeleton.of("alice")
        #expect(NameSkeleton.of("\u{430}lice") == alice, "Cyrillic а")
        #expect(NameSkeleton.of("\u{FF41}lice") == alice, "fullwidth ａ")
        #expect(NameSkeleton.of("ALICE") == alice, "case does not matter")
        #expect(NameSkeleton.candidates(of: "aIice").contains(alice), "a capital I for the l")
        #expect(NameSkeleton.of("paypal") == NameSkeleton.of("p\u{430}yp\u{430}l"))
        #expect(NameSkeleton.of("bob") != alice)
        #expect(ConfusablesTable.count > 6000 && ConfusablesTable.unicodeVersion == "13.0.0")
    }

    @Test(arguments: Backend.available)
    func theStoreFindsALookAlikeButNotTheNameItself(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let alice = try await store.createUser(named: "alice")
            #expect(try await store.user(confusableWith: "\u{430}lice")?.id == alice.id)
            #expect(try await store.user(confusableWith: "aIice")?.id == alice.id)
            #expect(
                try await store.user(confusableWith: "Alice") == nil, "the same name is not a look-alike (it is taken)")
            #expect(try await store.user(confusableWith: "bob") == nil)
        }
    }

    @Test func existingAccountsGetTheirSkeletonWhenMigrated() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-v4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        do {
            let pool = try DatabasePool(path: path)
            try SQLiteSchema.migrator.migrate(pool, upTo: "v4: Apple app nonces, Apple identity token uses")
            try await pool.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO users (id, user_handle, name, name_key, display_name, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [UUID(), Data([1, 2, 3]), "paypal", "paypal", "PayPal", Date()]
                )
            }
        }
        let store = try SQLiteStore(path: path)
        #expect(try await store.user(confusableWith: "p\u{430}yp\u{430}l")?.name == "paypal")
    }

    /// The same on PostgreSQL, whose v5 fills the skeletons in Swift after its statements (`Migration.then`): a schema
    /// migrated up to v4, with an account made then, migrated again.
    @Test(.enabled(if: Backend.postgresURL != nil, Comment(rawValue: Backend.skipMessage)))
    func existingAccountsGetTheirSkeletonWhenMigratedOnPostgres() async throws {
        try await TestDatabase.with(.postgres) { database in
            let configuration = try #require(database.postgresConfiguration)
            let store = try PostgresStore(configuration: configuration, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.migrate(upTo: 4)
                try await database.execute {
                    """
                    INSERT INTO \($0)users (id, user_handle, name, name_key, display_name, created_at)
                    VALUES ('\(UUID())', '\\x010203', 'paypal', 'paypal', 'PayPal', now())
                    """
                }
                try await store.migrate()
                #expect(try await store.user(confusableWith: "p\u{430}yp\u{430}l")?.name == "paypal")
            }
        }
    }
}
