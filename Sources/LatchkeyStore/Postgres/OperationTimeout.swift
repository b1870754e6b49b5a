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
/// transaction is never left half done: a statement that ends so rolls its transaction back. A statement that
/// finishes in that time after the limit reports its own result (a sign-up that committed is not answered 503).
///
/// Past the limit and that much again (at least a second), the call answers ``StoreError/Code/unavailable`` whatever the operation is
/// doing, and leaves it to finish on its own: an operation that neither finishes nor heeds its cancellation (seen
/// once PostgreSQL restarted under load) must not hold its request forever.
///
/// The limit is a timer on a SwiftNIO event loop (the pool's own event loop group), not `Task.sleep`: a sleep is a
/// timer on Dispatch's global executor, armed and cancelled on every call, with a task group around it. Sleeps were 7 %
/// of a PostgreSQL-backed server's CPU time; about one point of that was these, the rest PostgresNIO's own pool timers.
///
/// The timer is armed when the operation starts to run, not when it is queued: on a busy process a new task can wait
/// for a thread for a while, and that wait is not PostgreSQL's. (A timer armed by the caller fired in the test suite's
/// parallel run, where hundreds of tests share two threads, before a call that failed at once had even started.)
enum OperationTimeout {
    /// The call's outcome, resumed once: by the operation, or by giving up on it.
    private final class Outcome<T: Sendable>: Sendable {
        private enum State {
            case running(cancel: (@Sendable () -> Void)?, waiter: CheckedContinuation<T, any Error>?)
            case finished(Result<T, any Error>)
            case answered
        }

        private let state = Mutex<State>(.running(cancel: nil, waiter: nil))
        /// Whether the limit passed.
        private let expired = Atomic<Bool>(false)

        /// The limit passed: cancels the operation now, or as soon as ``attach(_:)`` says how.
        func expire() {
            expired.store(true, ordering: .sequentiallyConsistent)
            let cancel: (@Sendable () -> Void)? = state.withLock { state in
                guard case .running(let cancel, _) = state else { return nil }
                return cancel
            }
            cancel?()
        }

        /// How to cancel the operation; at once if the limit has passed already.
        func attach(_ cancel: @escaping @Sendable () -> Void) {
            let passed = state.withLock { state in
                guard case .running(_, let waiter) = state else { return false }
                state = .running(cancel: cancel, waiter: waiter)
                return expired.load(ordering: .sequentiallyConsistent)
            }
            if passed { cancel() }
        }

        /// The answer: `result`, or ``StoreError/Code/unavailable`` for a failure once the limit has passed. The
        /// first call answers; later ones are ignored.
        func answer(_ result: Result<T, any Error>, limit: Duration) {
            var result = result
            if case .failure = result, expired.load(ordering: .sequentiallyConsistent) {
                result = .failure(StoreError(.unavailable, "PostgreSQL did not answer within \(limit)"))
            }
            let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
                switch state {
                case .running(_, let waiter?):
                    state = .answered
                    return waiter
                case .running(_, nil):
                    state = .finished(result)
                    return nil
                case .finished, .answered:
                    return nil
                }
            }
            waiter?.resume(with: result)
        }

        /// Waits for ``answer(_:limit:)``.
        func value() async throws -> T {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let ready: Result<T, any Error>? = state.withLock { state -> Result<T, any Error>? in
                    switch state {
                    case .running(let cancel, _):
                        state = .running(cancel: cancel, waiter: continuation)
                        return nil
                    case .finished(let result):
                        state = .answered
                        return result
                    case .answered:
                        return .failure(StoreError(.databaseError, "a store call was waited for twice"))
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }

    /// Runs `operation`, cancelling it and throwing ``StoreError/Code/unavailable`` if it has not finished within
    /// `limit` of starting; at the latest `grace` (by default `max(limit, 1 s)`) after the limit, finished or not.
    /// Cancelling the caller cancels `operation`.
    static func run<T: Sendable>(
        limit: Duration, grace: Duration? = nil,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let grace = grace ?? max(limit, .seconds(1))
        let outcome = Outcome<T>()
        let task = Task {
            let loop = MultiThreadedEventLoopGroup.singleton.any()
            let timer = loop.scheduleTask(in: TimeAmount(limit)) {
                outcome.expire()
                // Given up on if it has not finished in the time `statement_timeout` gives a statement already sent.
                loop.scheduleTask(in: TimeAmount(grace)) {
                    outcome.answer(.failure(StoreError(.unavailable, "abandoned")), limit: limit)
                }
            }
            defer { timer.cancel() }
            do {
                outcome.answer(.success(try await operation()), limit: limit)
            } catch {
                outcome.answer(.failure(error), limit: limit)
            }
        }
        outcome.attach { task.cancel() }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            task.cancel()
        }
    }
}
