import Foundation
import LatchkeyStore
import LatchkeyTestSupport
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import LatchkeyServer

/// The loop behind the outbox, the webhook dispatcher and the expiry purge (`repeatedly(every:)`), and the wait for the
/// migration in front of them (`AfterMigration`): a server shutting down gracefully ends both at once, mid-wait, without
/// another round; a cancelled task does too; a round that fails is followed by the next. The tests give the loop 100 ms
/// to reach its wait: on a machine too busy for that, the shutdown meets the loop's own check first, and the test passes
/// without exercising the cut-short wait.
@Suite("Background services: the loop and the wait for the migration")
struct BackgroundLoopTests {
    /// Counts the rounds of `repeatedly` with an hour between them: a test that ends it in seconds shows the wait was
    /// cut short, and a count of zero that no round ran on the way out.
    struct HourlyRoundsService: Service {
        let counter: Counter
        let started: AsyncStream<Void>.Continuation

        func run() async throws {
            started.yield()
            await repeatedly(every: .seconds(3600)) { counter.rounds.add(1, ordering: .relaxed) }
        }
    }

    final class Counter: Sendable {
        let rounds = Atomic<Int>(0)
    }

    /// Runs `service` in a service group, runs `whileRunning`, then shuts the group down gracefully and waits for it.
    private static func run(_ service: some Service, whileRunning: () async throws -> Void) async throws {
        let group = ServiceGroup(configuration: .init(services: [service], logger: quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await whileRunning()
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
    }

    @Test("a graceful shutdown cuts the loop's wait short and runs no further round", .timeLimit(.minutes(1)))
    func gracefulShutdownEndsTheWait() async throws {
        let counter = Counter()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let began = ContinuousClock.now
        try await Self.run(HourlyRoundsService(counter: counter, started: start)) {
            var iterator = started.makeAsyncIterator()
            _ = await iterator.next()
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ContinuousClock.now - began < .seconds(30))
        #expect(counter.rounds.load(ordering: .relaxed) == 0)
    }

    @Test("a cancelled task ends the loop's wait and runs no further round", .timeLimit(.minutes(1)))
    func cancellationEndsTheWait() async throws {
        let counter = Counter()
        let running = Task { await repeatedly(every: .seconds(3600)) { counter.rounds.add(1, ordering: .relaxed) } }
        try await Task.sleep(for: .milliseconds(100))
        running.cancel()
        await running.value
        #expect(counter.rounds.load(ordering: .relaxed) == 0)
    }

    @Test("rounds follow one another, each after the interval")
    func roundsRepeat() async throws {
        let counter = Counter()
        let began = ContinuousClock.now
        let third = Mutex<ContinuousClock.Instant?>(nil)
        let running = Task {
            await repeatedly(every: .milliseconds(20)) {
                if counter.rounds.add(1, ordering: .relaxed).newValue == 3 { third.withLock { $0 = .now } }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while counter.rounds.load(ordering: .relaxed) < 3 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        running.cancel()
        await running.value
        let reached = try #require(third.withLock { $0 }, "three rounds")
        #expect(reached - began >= .milliseconds(60), "three waits of 20 ms before the third round")
    }

    @Test(
        "a server shutting down before the migration is done never starts the service behind it",
        .timeLimit(.minutes(1)))
    func shutdownBeforeMigrationSkipsTheService() async throws {
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let service = AfterMigration(
            migration: StoreMigration(), service: HourlyRoundsService(counter: Counter(), started: start))
        try await Self.run(service) { try await Task.sleep(for: .milliseconds(100)) }
        start.finish()
        var iterator = started.makeAsyncIterator()
        #expect(await iterator.next() == nil, "the service behind the wait never ran")
    }

    @Test("a service waiting for the migration starts once it is marked done", .timeLimit(.minutes(1)))
    func migrationDoneStartsTheService() async throws {
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let migration = StoreMigration()
        let service = AfterMigration(
            migration: migration, service: HourlyRoundsService(counter: Counter(), started: start))
        try await Self.run(service) {
            try await Task.sleep(for: .milliseconds(100))  // waiting by now, on an idle machine
            migration.markDone()
            var iterator = started.makeAsyncIterator()
            _ = await iterator.next()
        }
    }

    @Test("the expiry purge goes on after a round that failed", .timeLimit(.minutes(1)))
    func purgeSurvivesAFailedRound() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let store = FaultInjectingStore(try database.makeStore())
            try await store.migrate()
            store.fail(.purgeSpentTickets, with: StoreError(.unavailable, "down"), times: 1)
            let purge = ExpiryPurgeService(store: store, interval: .milliseconds(10), logger: quietLogger)
            try await Self.run(purge) {
                while store.count(.purgeExpiredSessions) == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(store.count(.purgeSpentTickets) >= 2, "the failed round, then one that went through")
        }
    }

    @Test("the webhook dispatcher goes on after an outbox read that failed", .timeLimit(.minutes(1)))
    func dispatcherSurvivesAFailedRound() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let store = FaultInjectingStore(try database.makeStore())
            try await store.migrate()
            store.fail(.claimWebhookDeliveries, with: StoreError(.unavailable, "down"), times: 1)
            var dispatcher = WebhookDispatcher(store: store, endpoints: [], logger: quietLogger)
            dispatcher.pollInterval = .milliseconds(10)
            try await Self.run(dispatcher) {
                while store.count(.claimWebhookDeliveries) < 2 { try await Task.sleep(for: .milliseconds(10)) }
            }
        }
    }
}
