import Foundation
import GRDB
import Testing

@testable import LatchkeyStore

/// ``SQLiteStore``'s purges delete in batches of ``SQLiteStore/purgeBatch`` rows, each its own transaction, so that a
/// large purge never holds the writer (on `latchkey serve`, an event loop) for long.
@Suite("SQLite purges: in batches, one transaction each")
struct SQLitePurgeTests {
    /// Counts the commits that deleted rows of one table.
    final class DeletionCommits: TransactionObserver, @unchecked Sendable {
        let table: String
        private var deletedInTransaction = 0
        /// The rows each commit deleted, in order.
        private(set) var commits: [Int] = []

        init(table: String) {
            self.table = table
        }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            if case .delete(let tableName) = eventKind { return tableName == table }
            return false
        }

        func databaseDidChange(with event: DatabaseEvent) {
            deletedInTransaction += 1
        }

        func databaseDidCommit(_ db: Database) {
            if deletedInTransaction > 0 { commits.append(deletedInTransaction) }
            deletedInTransaction = 0
        }

        func databaseDidRollback(_ db: Database) {
            deletedInTransaction = 0
        }
    }

    private func withStore(_ body: (SQLiteStore) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-purge-\(UUID().uuidString).sqlite"
        ).path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try await body(try SQLiteStore(path: path))
    }

    private func observe(_ table: String, in store: SQLiteStore) async throws -> DeletionCommits {
        let observer = DeletionCommits(table: table)
        try await store.write { db in db.add(transactionObserver: observer, extent: .observerLifetime) }
        return observer
    }

    @Test("spent tickets: two and a half batches expired are all deleted, the live ones kept")
    func spentTicketsInBatches() async throws {
        let expiredCount = SQLiteStore.purgeBatch * 5 / 2
        try await withStore { store in
            try await store.write { db in
                for index in 0..<expiredCount {
                    try db.execute(
                        sql: "INSERT INTO spent_tickets (id, expires_at) VALUES (?, ?)",
                        arguments: ["expired-\(index)", Make.now.addingTimeInterval(-Double(index))]
                    )
                }
            }
            let live = [
                Make.ticket(expiresAt: Make.now.addingTimeInterval(1)),
                Make.ticket(expiresAt: Make.now.addingTimeInterval(60)),
            ]
            for ticket in live { #expect(try await store.spendTicket(ticket)) }

            // (SQLite tells no observer about a WITHOUT ROWID table's rows: the next test counts the transactions.)
            #expect(try await store.purgeSpentTickets(now: Make.now) == expiredCount)
            for ticket in live { #expect(try await store.spendTicket(ticket) == false, "a live ticket stays spent") }
            #expect(try await store.purgeSpentTickets(now: Make.now) == 0)
        }
    }

    @Test("Apple's nonces: two and a half batches expired, three transactions")
    func appleNoncesInBatches() async throws {
        let expiredCount = SQLiteStore.purgeBatch * 5 / 2
        try await withStore { store in
            try await store.write { db in
                for index in 0..<expiredCount + 1 {
                    // The last one expires after `now`.
                    let expiresAt = Make.now.addingTimeInterval(index == expiredCount ? 60 : -Double(index))
                    try db.execute(
                        sql: "INSERT INTO apple_nonces (nonce, created_at, expires_at) VALUES (?, ?, ?)",
                        arguments: ["nonce-\(index)", Make.now.addingTimeInterval(-600), expiresAt]
                    )
                }
            }
            let observer = try await observe("apple_nonces", in: store)

            #expect(try await store.purgeExpiredAppleRecords(now: Make.now) == expiredCount)
            #expect(
                observer.commits == [
                    SQLiteStore.purgeBatch, SQLiteStore.purgeBatch, expiredCount - 2 * SQLiteStore.purgeBatch,
                ])
            #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM apple_nonces") } == 1)
        }
    }

    @Test("an exact number of batches ends with one empty pass, and nothing else is deleted")
    func exactBatches() async throws {
        try await withStore { store in
            try await store.write { db in
                for index in 0..<SQLiteStore.purgeBatch {
                    try db.execute(
                        sql: """
                            INSERT INTO password_throttles (key, failures, next_allowed_at, last_failure_at)
                            VALUES (?, 1, ?, ?)
                            """,
                        arguments: [
                            "old-\(index)", Make.now.addingTimeInterval(-120), Make.now.addingTimeInterval(-120),
                        ]
                    )
                }
            }
            _ = try await store.reservePasswordAttempt(key: "current", now: Make.now) { _ in 0 }
            let observer = try await observe("password_throttles", in: store)

            #expect(
                try await store.purgePasswordThrottles(lastFailureBefore: Make.now.addingTimeInterval(-60))
                    == SQLiteStore.purgeBatch)
            #expect(observer.commits == [SQLiteStore.purgeBatch])
            #expect(
                try await store.passwordThrottle(key: "current") != nil,
                "the current record is kept")
        }
    }
}
