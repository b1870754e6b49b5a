import Foundation
@_exported import LatchkeyTestSupport
import Testing

@testable import LatchkeyStore

extension TestDatabase {
    /// Opens a store on this database, runs it (PostgreSQL needs its pool running) and migrates it, runs `body`,
    /// and stops the store.
    func withStore<T: Sendable>(_ body: (any LatchkeyStore) async throws -> T) async throws -> T {
        let store = try makeStore()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.run() }
            defer { group.cancelAll() }
            try await store.migrate()
            return try await body(store)
        }
    }
}

/// Runs `body` against a store on a fresh database of `backend` and removes the database afterwards.
func withStore<T: Sendable>(_ backend: Backend, _ body: (any LatchkeyStore) async throws -> T) async throws -> T {
    try await TestDatabase.with(backend) { database in try await database.withStore(body) }
}

/// Expects `body` to throw a ``StoreError`` with `code`.
func expectStoreError<T>(
    _ code: StoreError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async {
    do {
        let value = try await body()
        Issue.record("expected \(code), got \(value)", sourceLocation: sourceLocation)
    } catch let error as StoreError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected StoreError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
