import Foundation
import PostgresNIO
import Testing

@testable import LatchkeyStore

/// What a sign-in costs PostgreSQL: its statements are prepared once per connection, and the session cap reads an
/// account's newest sessions along an index.
@Suite("PostgreSQL sign-in statements", .enabled(if: Backend.postgresURL != nil, "\(Backend.skipMessage)"))
struct PostgresStatementTests {
    @Test("a sign-in's reads and commit are prepared statements, used again on later sign-ins")
    func signInStatementsArePrepared() async throws {
        try await TestDatabase.with(.postgres) { database in
            // One connection, so the statements prepared and the list of them are on the same one.
            var configuration = try #require(database.postgresConfiguration)
            configuration.maximumConnections = 1
            let store = try PostgresStore(configuration: configuration, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.migrate()
                let user = try await store.createUser(named: "ann")
                let credential = Make.credential(of: user.id)
                try await store.addCredential(credential)
                for count in UInt32(0)..<3 {
                    #expect(try await store.account(named: "ann")?.credentials.count == 1)
                    #expect(try await store.account(ofCredential: credential.id)?.user == user)
                    #expect(
                        try await store.commitAuthentication(
                            spending: SpentTicket(id: "ticket-\(count)", expiresAt: Make.now.addingTimeInterval(300)),
                            credentialID: credential.id, newSignCount: count + 1, backupEligible: false,
                            backedUp: false, usedAt: Make.now, session: Make.session(of: user.id),
                            previousSignCount: count))
                }
                let prepared = try await store.pool { client in
                    try await client.all(
                        "SELECT name FROM pg_prepared_statements WHERE name LIKE 'latchkey_%' ORDER BY name",
                        logger: TestDatabase.logger
                    ) { try $0.decode(String.self) }
                }
                #expect(
                    prepared == [
                        "latchkey_account_named", "latchkey_account_of_credential", "latchkey_commit_authentication",
                    ])
            }
        }
    }

    @Test("the session cap reads an account's newest sessions along an index, without a sort")
    func sessionCapUsesTheIndex() async throws {
        try await withStore(.postgres) { store in
            let postgres = try #require(store as? PostgresStore)
            let plan = try await postgres.transaction { connection in
                // An empty table would be read whole, or by bitmap and sorted; the test asks what the planner has for a
                // large one.
                try await connection.execute("SET LOCAL enable_seqscan = off", logger: TestDatabase.logger)
                try await connection.execute("SET LOCAL enable_bitmapscan = off", logger: TestDatabase.logger)
                return try await connection.all(
                    """
                    EXPLAIN SELECT token_hash FROM sessions WHERE user_id = \(UUID())
                    ORDER BY created_at DESC, token_hash DESC OFFSET 50
                    """,
                    logger: TestDatabase.logger
                ) { try $0.decode(String.self) }
            }
            #expect(plan.contains { $0.contains("Scan using sessions_user_newest") }, "\(plan)")
            #expect(!plan.contains { $0.contains("Sort") }, "\(plan)")
        }
    }
}
