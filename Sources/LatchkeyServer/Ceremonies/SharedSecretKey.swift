import Crypto
import Foundation
import LatchkeyStore
import NIOConcurrencyHelpers
import WebAuthn

/// A 32-byte key kept in the store under a name: made by the first instance that needs it, shared by every instance
/// on the database (``LatchkeyStore/ServerStateStore/serverSecret(named:candidate:)``), read from the store once per
/// process.
final class SharedSecretKey: Sendable {
    /// The store's name of the secret.
    let name: String
    private let store: any ServerStateStore
    private let cached = NIOLockedValueBox<SymmetricKey?>(nil)

    init(store: any ServerStateStore, name: String) {
        self.store = store
        self.name = name
    }

    /// The key; the first call reads (or makes) it.
    func value() async throws -> SymmetricKey {
        if let key = cached.withLockedValue({ $0 }) { return key }
        let candidate = Data(RelyingParty.generateChallenge(byteCount: 32))
        let stored = SymmetricKey(data: try await store.serverSecret(named: name, candidate: candidate))
        cached.withLockedValue { $0 = stored }
        return stored
    }
}
