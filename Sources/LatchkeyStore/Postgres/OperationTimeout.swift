import NIOCore
import NIOPosix
import Synchronization

/// Bounds how long one store call waits, so a request fails with ``StoreError/Code/unavailable`` instead of hanging
/// while the pool cannot reach the database (PostgresNIO keeps retrying connections for a minute before it gives up
/// on a request).
///
/// At the limit the call is cancelled, which withdraws a pending request for a connection. PostgresNIO does not
/// cancel a statement already sent, so such a statement (or transaction) runs to its end first: if it succeeds, its
/// result is returned, late; if it fails, the call reports ``StoreError/Code/unavailable``. Either way a transaction
/// is never left half done.
///
/// The limit is a timer on a SwiftNIO event loop (the pool's own event loop group), not `Task.sleep`: a sleep is a
/// timer on Dispatch's global executor, armed and cancelled on every call, with a task group around it. Sleeps were 7 %
/// of a PostgreSQL-backed server's CPU time; about one point of that was these, the rest PostgresNIO's own pool timers.
enum OperationTimeout {
    /// Set by the timer when the limit passed.
    private final class Expiry: Sendable {
        let passed = Atomic<Bool>(false)
    }

    /// Runs `operation`, cancelling it and throwing ``StoreError/Code/unavailable`` if it has not finished within `limit`.
    /// Cancelling the caller cancels `operation`.
    static func run<T: Sendable>(
        limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let expiry = Expiry()
        let task = Task { try await operation() }
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(limit)) {
            expiry.passed.store(true, ordering: .releasing)
            task.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch where expiry.passed.load(ordering: .acquiring) {
            throw StoreError(.unavailable, "PostgreSQL did not answer within \(limit)")
        }
    }
}
