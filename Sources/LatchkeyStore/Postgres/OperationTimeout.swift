/// Bounds how long one store call waits, so a request fails with ``StoreError/Code/unavailable`` instead of hanging
/// while the pool cannot reach the database (PostgresNIO keeps retrying connections for a minute before it gives up
/// on a request).
///
/// At the limit the call is cancelled, which withdraws a pending request for a connection. PostgresNIO does not
/// cancel a statement already sent, so such a statement (or transaction) runs to its end first: if it succeeds, its
/// result is returned, late; if it fails, the call reports ``StoreError/Code/unavailable``. Either way a transaction
/// is never left half done.
enum OperationTimeout {
    private enum Outcome<T: Sendable>: Sendable {
        case finished(T)
        case timedOut
    }

    /// Runs `operation`, cancelling it and throwing ``StoreError/Code/unavailable`` if it has not finished within `limit`.
    static func run<T: Sendable>(
        limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
            group.addTask { .finished(try await operation()) }
            group.addTask {
                try await Task.sleep(for: limit)
                return .timedOut
            }
            defer { group.cancelAll() }
            var timedOut = false
            do {
                while let outcome = try await group.next() {
                    switch outcome {
                    case .finished(let value):
                        return value
                    case .timedOut:
                        timedOut = true
                        group.cancelAll()
                    }
                }
            } catch where timedOut {
                throw StoreError(.unavailable, "PostgreSQL did not answer within \(limit)")
            }
            throw StoreError(.unavailable, "PostgreSQL did not answer within \(limit)")
        }
    }
}
