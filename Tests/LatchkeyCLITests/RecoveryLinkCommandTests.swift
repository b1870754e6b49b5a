import Foundation
import LatchkeyStore
import LatchkeyTestSupport
import Testing

/// `latchkey recovery-link`: an operator issues a recovery link straight into the database.
@Suite("latchkey recovery-link")
struct RecoveryLinkCommandTests {
    @Test(arguments: Backend.available)
    func issuesALinkForAnAccount(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database throws in
            let store = try database.makeStore()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.run() }
                defer { group.cancelAll() }
                try await store.migrate()
                try await store.createUser(
                    StoredUser(userHandle: Data(repeating: 7, count: 32), name: "alice", displayName: "Alice"))
            }
            let result = await CLIHarness.run([
                "recovery-link", "--database", database.url, "--username", "alice", "--origin", "https://example.com",
            ])
            #expect(result.status == 0, "\(result.output)")
            let json = try result.json()
            let token = try #require(json["token"]?.stringValue)
            #expect(token.count == 43)
            #expect(json["url"]?.stringValue == "https://example.com/#recover=\(token)")

            let unknown = await CLIHarness.run([
                "recovery-link", "--database", database.url, "--username", "nobody", "--origin", "https://example.com",
            ])
            #expect(unknown.status == 1 && unknown.errorCode == "store.notFound", "\(unknown.output)")
        }
    }

    @Test func badFlagsAreUsageErrors() async {
        let origin = await CLIHarness.run(["recovery-link", "--username", "a", "--origin", "ftp://x"])
        #expect(origin.status == 2 && origin.errorCode == "usage.origin")
        let lifetime = await CLIHarness.run([
            "recovery-link", "--username", "a", "--origin", "https://x.example", "--lifetime", "5",
        ])
        #expect(lifetime.status == 2 && lifetime.errorCode == "usage.lifetime")
    }
}
