import Foundation
import GRDB
import Testing

@testable import LatchkeyStore

/// SQLiteStore's account and credential reads on its own read connections: they see every commit, read back exactly
/// what was written, run concurrently, and refuse a damaged row with a store error.
@Suite("SQLite account reads on their own connections")
struct SQLiteAccountReaderTests {
    private func withStore(_ body: (SQLiteStore, String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-accounts-\(UUID().uuidString).sqlite"
        ).path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try await body(try SQLiteStore(path: path), path)
    }

    /// Stores a user named `name` with one credential.
    private func storeAccount(_ name: String, in store: SQLiteStore) async throws -> (StoredUser, StoredCredential) {
        let user = Make.user(name: name)
        let credential = Make.credential(of: user.id)
        try await store.commitRegistration(credential, creating: user, session: nil)
        return (user, credential)
    }

    @Test("a reused connection sees each later commit and reads back what was written, by name, credential and user")
    func seesCommitsAndReadsWhatWasWritten() async throws {
        try await withStore { store, _ in
            let user = Make.user(name: "Reader")
            #expect(try await store.account(named: "reader") == nil)
            try await store.createUser(user)
            #expect(try await store.account(named: "reader") == StoredAccount(user: user, credentials: []))
            let first = Make.unusualCredential(of: user.id, createdAt: Date(timeIntervalSince1970: 1_000.125))
            let second = Make.credential(of: user.id, createdAt: Date(timeIntervalSince1970: 2_000))
            try await store.commitRegistration(first, creating: nil, session: nil)
            #expect(try await store.account(ofCredential: first.id) == StoredAccount(user: user, credentials: [first]))
            try await store.commitRegistration(second, creating: nil, session: nil)
            #expect(try await store.account(ofCredential: first.id)?.credentials == [first, second])
            #expect(
                try await store.commitAuthentication(
                    spending: Make.ticket(), credentialID: second.id, newSignCount: 9, backedUp: true, usedAt: Make.now,
                    session: nil,
                    previousSignCount: second.signCount
                ))
            var signedIn = second
            signedIn.signCount = 9
            signedIn.backedUp = true
            signedIn.lastUsedAt = Make.now
            #expect(
                try await store.account(named: "READER") == StoredAccount(user: user, credentials: [first, signedIn]))
            #expect(try await store.credentials(ofUser: user.id) == [first, signedIn])
            #expect(try await store.credential(id: second.id) == signedIn)
            #expect(try await store.credential(id: Make.bytes(32)) == nil)
            #expect(try await store.credentials(ofUser: UUID()) == [])
        }
    }

    @Test("many reads at once all succeed")
    func concurrentReads() async throws {
        try await withStore { store, _ in
            let (user, credential) = try await storeAccount("many", in: store)
            let expected = StoredAccount(user: user, credentials: [credential])
            let reads = try await withThrowingTaskGroup(of: StoredAccount?.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        index % 2 == 0
                            ? try await store.account(named: "many")
                            : try await store.account(ofCredential: credential.id)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(reads.count == 64)
            #expect(reads.allSatisfy { $0 == expected })
        }
    }

    @Test("a damaged row is a corruptRecord store error, not a crash; an empty credential ID reads nothing")
    func damagedRows() async throws {
        try await withStore { store, path in
            let (_, credential) = try await storeAccount("damaged", in: store)
            #expect(try await store.account(ofCredential: Data()) == nil)

            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in try db.execute(sql: "UPDATE credentials SET transports = 'not json'") }
            await expectStoreError(.corruptRecord) { _ = try await store.account(named: "damaged") }
            await expectStoreError(.corruptRecord) { _ = try await store.account(ofCredential: credential.id) }
            try await queue.write { db in
                try db.execute(sql: "UPDATE credentials SET transports = '[]', aaguid = x'0102'")
            }
            await expectStoreError(.corruptRecord) {  // a 2-byte AAGUID
                _ = try await store.account(ofCredential: credential.id)
            }
        }
    }
}
