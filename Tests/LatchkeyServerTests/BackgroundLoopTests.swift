import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import LatchkeyServer

/// The loop behind the outbox, the webhook dispatcher and the expiry purge (`repeatedly(every:)`), and the wait for the
/// migration in front of them (`AfterMigration`): a server shutting down gracefully ends both at once, mid-wait, without
/// another round; a cancelled task does too. The tests give the loop 100 ms to reach its wait: on a machine too busy for
/// that, the shutdown meets the loop's own check first, and the test passes without exercising the cut-short wait.
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

    @Test("a graceful shutdown cuts the loop's wait short and runs no further round", .timeLimit(.minutes(1)))
    func gracefulShutdownEndsTheWait() async throws {
        let counter = Counter()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let service = HourlyRoundsService(counter: counter, started: start)
        let group = ServiceGroup(configuration: .init(services: [service], logger: quietLogger))
        let began = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = started.makeAsyncIterator()
            _ = await iterator.next()
            try await Task.sleep(for: .milliseconds(100))
            await group.triggerGracefulShutdown()
            try await tasks.next()
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
        let counter = Counter()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let service = AfterMigration(
            migration: StoreMigration(), service: HourlyRoundsService(counter: counter, started: start))
        let group = ServiceGroup(configuration: .init(services: [service], logger: quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await Task.sleep(for: .milliseconds(100))
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
        start.finish()
        var iterator = started.makeAsyncIterator()
        #expect(await iterator.next() == nil, "the service behind the wait never ran")
    }

    @Test("once the migration is marked done, the service behind the wait runs", .timeLimit(.minutes(1)))
    func migrationDoneStartsTheService() async throws {
        let counter = Counter()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let migration = StoreMigration()
        let service = AfterMigration(
            migration: migration, service: HourlyRoundsService(counter: counter, started: start))
        let group = ServiceGroup(configuration: .init(services: [service], logger: quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            migration.markDone()
            var iterator = started.makeAsyncIterator()
            _ = await iterator.next()
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
    }
}
