import ServiceLifecycle
import Synchronization

/// Whether the store has been migrated: the server marks it once its `beforeServerStarts` migration has finished.
final class StoreMigration: Sendable {
    private let done = Atomic<Bool>(false)

    func markDone() {
        done.store(true, ordering: .releasing)
    }

    /// Returns once the migration is done; throws `CancellationError` if the task is cancelled or the server shuts
    /// down first (a migration that failed stops the server).
    func wait() async throws {
        while !done.load(ordering: .acquiring) {
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(50)) }
        }
    }
}

/// A background service of the server (the outbox, the webhook dispatcher, the expiry purge) that starts only once the
/// store is migrated, so its first round never reads a table the migration is still making.
struct AfterMigration<Wrapped: Service>: Service {
    let migration: StoreMigration
    let service: Wrapped

    func run() async throws {
        do {
            try await migration.wait()
        } catch {
            return  // shut down before the store was ready
        }
        try await service.run()
    }
}
