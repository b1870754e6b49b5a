import NIOCore
import NIOPosix
import Synchronization

/// Bounds how long one store call waits, so a request fails with ``StoreError/Code/unavailable`` instead of hanging
/// while the pool cannot reach the database (PostgresNIO keeps retrying connections for a minute before it gives up
/// on a request).
///
/// At the limit the call is cancelled, which withdraws a pending request for a connection. PostgresNIO does not
/// cancel a statement already sent; PostgreSQL ends it instead, since every connection runs with `statement_timeout`
/// set to the same limit (``PostgresStore/Configuration``), and the call reports ``StoreError/Code/unavailable``. A
/// transaction is never left half done: a statement that ends so rolls its transaction back.
///
/// The limit is a timer on a SwiftNIO event loop (the pool's own event loop group), not `Task.sleep`: a sleep is a
/// timer on Dispatch's global executor, armed and cancelled on every call, with a task group around it. Sleeps were 7 %
/// of a PostgreSQL-backed server's CPU time; about one point of that was these, the rest PostgresNIO's own pool timers.
///
/// The timer is armed when the operation starts to run, not when it is queued: on a busy process a new task can wait
/// for a thread for a while, and that wait is not PostgreSQL's. (A timer armed by the caller fired in the test suite's
/// parallel run, where hundreds of tests share two threads, before a call that failed at once had even started.)
enum OperationTimeout {
    /// Whether the limit passed, and how to cancel the operation.
    private final class Expiry: Sendable {
        private let state = Mutex<(passed: Bool, cancel: (@Sendable () -> Void)?)>((false, nil))

        var passed: Bool { state.withLock { $0.passed } }

        /// The limit passed: cancels the operation now, or as soon as ``attach(_:)`` says how.
        func expire() {
            let cancel = state.withLock { state in
                state.passed = true
                return state.cancel
            }
            cancel?()
        }

        /// How to cancel the operation; at once if the limit has passed already.
        func attach(_ cancel: @escaping @Sendable () -> Void) {
            let passed = state.withLock { state in
                state.cancel = cancel
                return state.passed
            }
            if passed { cancel() }
        }
    }

    /// Runs `operation`, cancelling it and throwing ``StoreError/Code/unavailable`` if it has not finished within
    /// `limit` of starting. Cancelling the caller cancels `operation`.
    static func run<T: Sendable>(
        limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let expiry = Expiry()
        let task = Task {
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(limit)) {
                expiry.expire()
            }
            defer { timer.cancel() }
            return try await operation()
        }
        expiry.attach { task.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch  where expiry.passed {
            throw StoreError(.unavailable, "PostgreSQL did not answer within \(limit)")
        }
    }
}
