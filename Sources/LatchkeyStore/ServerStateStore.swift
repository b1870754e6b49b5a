import Foundation

/// State the server instances sharing a database agree on: named secrets made once (the key of decoy sign-in
/// options).
public protocol ServerStateStore: Sendable {
    /// The secret stored under `name`. The first call stores `candidate` and returns it; every later call (from any
    /// instance) returns that first value, so concurrent first calls agree.
    func serverSecret(named name: String, candidate: Data) async throws(StoreError) -> Data
}
