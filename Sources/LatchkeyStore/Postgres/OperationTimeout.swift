/// Bounds how long one store call may take, so a request fails with ``StoreError/Code/unavailable`` instead of
/// waiting while the pool cannot reach the database (PostgresNIO keeps retrying connections for a minute before it
/// gives up on a request).
enum OperationTimeout {
    /// Runs `operation`, cancelling it and throwing ``StoreError/Code/unavailable`` if it has not finished within `limit`.
    static func run<T: Sendable>(
        limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw StoreError(.unavailable, "PostgreSQL did not answer within \(limit)")
            }
            return value
        }
    }
}
