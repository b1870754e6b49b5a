import Foundation
import HTTPTypes
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// The server's answers when its store fails, in-process (``FaultInjectingStore`` around a real SQLite file): each
/// failure is the answer its code promises, changes nothing, and the next attempt after the store recovers succeeds.
@Suite("Store failures: 503 and 409 answers, and recovery")
struct StoreFaultTests {
    private func withFaultyServer(_ body: @escaping @Sendable (ServerHarness, FaultInjectingStore) async throws -> Void)
        async throws
    {
        try await withServer(.sqlite, wrapStore: { FaultInjectingStore($0) }) { server throws in
            let faults = try #require(server.store as? FaultInjectingStore)
            try await body(server, faults)
        }
    }

    @Test("the email outbox waits for a slow migration before its first round, then polls")
    func backgroundServicesWaitForTheMigration() async throws {
        var settings = ServerSettings.test
        settings.smtpURL = "log:"
        let migration = Duration.seconds(2)
        let started = ContinuousClock.now
        try await withServer(
            .sqlite, settings: settings,
            wrapStore: { base in
                let store = FaultInjectingStore(base)
                store.delay(.migrate, by: migration)
                return store
            }
        ) { server throws in
            let faults = try #require(server.store as? FaultInjectingStore)
            #expect(ContinuousClock.now - started >= migration)
            // The outbox polls every second: before, its first claim came a second into the migration and failed.
            #expect(faults.count(.claimMail) == 0, "claimed mail before the tables were made")
            let deadline = ContinuousClock.now + .seconds(10)
            while faults.count(.claimMail) == 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(faults.count(.claimMail) > 0, "the outbox runs once the store is ready")
        }
    }

    @Test(
        "a migration that fails stops the server with its reason; the services waiting for it never start",
        .timeLimit(.minutes(1)))
    func failedMigrationStopsTheServer() async throws {
        var settings = ServerSettings.test
        settings.smtpURL = "log:"
        var configuration = try ServerConfiguration(settings)
        configuration.passwordHashing = testScrypt
        let ready = configuration
        try await TestDatabase.with(.sqlite) { database in
            let store = FaultInjectingStore(try database.makeStore())
            // Failing 2 s in: without the wait, the outbox's first claim would come a second into the migration.
            store.delay(.migrate, by: .seconds(2))
            store.fail(.migrate, with: StoreError(.unavailable, "injected: the disk is gone"))
            await expectStartFailure(configuration: ready, store: store, because: "the disk is gone")
            #expect(store.count(.migrate) == 1)
            #expect(store.count(.claimMail) == 0, "the outbox ran on a store that was never migrated")
        }
    }

    @Test("a sign-in whose commit finds the store unavailable answers 503, writes nothing, and the next one succeeds")
    func unavailableCommit() async throws {
        try await withFaultyServer { server, faults throws in
            let phone = VirtualAuthenticator()
            #expect(try await NativeClient(http: server.app()).signUp("alice", with: phone).status == .created)
            let user = try #require(try await faults.base.user(named: "alice"))
            let before = try #require(try await faults.base.credentials(ofUser: user.id).first)

            faults.fail(.commitAuthentication, with: StoreError(.unavailable, "injected"))
            let refused = try await NativeClient(http: server.app()).signIn("alice", with: phone)
            #expect(refused.status == .serviceUnavailable, "\(refused)")
            #expect(refused.errorCode == "store.unavailable")
            #expect(try await faults.base.credentials(ofUser: user.id).first?.signCount == before.signCount)

            faults.heal()
            let signedIn = try await NativeClient(http: server.app()).signIn("alice", with: phone)
            #expect(signedIn.status == .ok, "\(signedIn)")
            #expect(faults.count(.commitAuthentication) == 2)
        }
    }

    @Test("a sign-up that finds the database busy answers 503 store.busy with Retry-After and leaves the name free")
    func busyRegistration() async throws {
        try await withFaultyServer { server, faults throws in
            faults.fail(.commitRegistration, with: StoreError(.busy, "injected"), times: 1)
            let refused = try await NativeClient(http: server.app()).signUp("bob", with: VirtualAuthenticator())
            #expect(refused.status == .serviceUnavailable, "\(refused)")
            #expect(refused.errorCode == "store.busy")
            #expect(refused.headers[.retryAfter] == "1")
            #expect(try await faults.base.user(named: "bob") == nil)
            let again = try await NativeClient(http: server.app()).signUp("bob", with: VirtualAuthenticator())
            #expect(again.status == .created, "\(again)")
        }
    }

    @Test("a sign-in that loses the sign count's compare-and-set answers 409, and a new sign-in succeeds")
    func conflictingCommit() async throws {
        try await withFaultyServer { server, faults throws in
            let phone = VirtualAuthenticator()
            #expect(try await NativeClient(http: server.app()).signUp("carol", with: phone).status == .created)
            faults.fail(.commitAuthentication, with: StoreError(.conflict, "injected"), times: 1)
            let refused = try await NativeClient(http: server.app()).signIn("carol", with: phone)
            #expect(refused.status == .conflict, "\(refused)")
            #expect(refused.errorCode == "credential.concurrentSignIn")
            #expect(try await NativeClient(http: server.app()).signIn("carol", with: phone).status == .ok)
        }
    }

    @Test("readiness answers 503 while the store does not answer, and 200 again after; liveness stays 200")
    func readiness() async throws {
        try await withFaultyServer { server, faults throws in
            faults.fail(.user, with: StoreError(.unavailable, "injected"))
            let notReady = try await server.app().send(.get, APIPaths.Operations.ready)
            #expect(notReady.status == .serviceUnavailable)
            #expect(notReady.errorCode == "store.unavailable")
            #expect(try await server.app().send(.get, APIPaths.Operations.health).status == .ok, "still alive")
            faults.heal()
            #expect(try await server.app().send(.get, APIPaths.Operations.ready).status == .ok)
        }
    }
}
