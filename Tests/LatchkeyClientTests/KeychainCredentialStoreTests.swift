import Foundation
import LatchkeyClient
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient
import WebAuthn

/// The Keychain store's logic over an in-memory keychain that behaves as the Keychain does (duplicate adds refused,
/// updates of missing items reported) and fails on demand: errors are surfaced, never an empty list.
@Suite("Keychain credential store")
struct KeychainCredentialStoreTests {
    final class MemoryKeychain: GenericPasswordKeychain, @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String: Data] = [:]
        /// The status every call fails with, when set.
        var failure: Int32?

        private func locked<T>(_ body: () throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
            lock.lock()
            defer { lock.unlock() }
            if let failure { throw KeychainStoreError(status: failure, "injected") }
            return try body()
        }

        func add(account: String, data: Data) throws(KeychainStoreError) {
            try locked { () throws(KeychainStoreError) in
                guard items[account] == nil else {
                    throw KeychainStoreError(status: KeychainStoreError.duplicateItem, "duplicate")
                }
                items[account] = data
            }
        }

        func update(account: String, data: Data) throws(KeychainStoreError) -> Bool {
            try locked {
                guard items[account] != nil else { return false }
                items[account] = data
                return true
            }
        }

        func data(account: String) throws(KeychainStoreError) -> Data? { try locked { items[account] } }
        func allItems() throws(KeychainStoreError) -> [(account: String, data: Data)] {
            try locked { items.map { ($0.key, $0.value) } }
        }
        func delete(account: String) throws(KeychainStoreError) -> Bool {
            try locked { items.removeValue(forKey: account) != nil }
        }
        func put(_ account: String, _ data: Data) { lock.withLock { items[account] = data } }
    }

    func credential(_ id: UInt8, rpID: String = "example.com", at seconds: TimeInterval) -> CredentialSource {
        CredentialSource(
            id: [id], rpID: rpID, userHandle: [id], userName: "u\(id)", userDisplayName: "U", algorithm: .es256,
            privateKey: Array(repeating: id, count: 32), isDiscoverable: true, backupEligible: false, backedUp: false,
            createdAt: Date(timeIntervalSince1970: seconds)
        )
    }

    @Test("save adds then replaces, lists one RP's credentials oldest first, deletes")
    func roundTrip() async throws {
        let keychain = MemoryKeychain()
        let store = KeychainCredentialStore(service: "test", keychain: keychain)
        let (first, second, other) = (
            credential(1, at: 20), credential(2, at: 10), credential(3, rpID: "other.example", at: 5)
        )
        for credential in [first, second, other] { try await store.save(credential) }
        var renamed = first
        renamed.userName = "renamed"
        try await store.save(renamed)

        #expect(try await store.credentials(rpID: "example.com").map(\.id) == [[2], [1]])
        #expect(try await store.credential(id: [1])?.userName == "renamed")
        #expect(try await store.credential(id: [9]) == nil)
        try await store.delete(id: [1])
        try await store.delete(id: [1])  // already gone: not an error
        #expect(try await store.credentials(rpID: "example.com").map(\.id) == [[2]])
    }

    @Test("a Keychain failure is thrown from every call: a failed read is never an empty list")
    func failuresSurface() async throws {
        let keychain = MemoryKeychain()
        let store = KeychainCredentialStore(service: "test", keychain: keychain)
        let saved = credential(1, at: 1)
        try await store.save(saved)
        keychain.failure = KeychainStoreError.missingEntitlement
        for call in [
            { _ = try await store.credentials(rpID: "example.com") },
            { _ = try await store.credential(id: [1]) },
            { try await store.save(saved) },
            { try await store.delete(id: [1]) },
        ] as [() async throws -> Void] {
            let error = await #expect(throws: KeychainStoreError.self) { try await call() }
            #expect(error?.status == KeychainStoreError.missingEntitlement)
        }
    }

    @Test("an item that is not a stored credential fails the listing with its account named")
    func undecodableItem() async throws {
        let keychain = MemoryKeychain()
        let store = KeychainCredentialStore(service: "test", keychain: keychain)
        try await store.save(credential(1, at: 1))
        keychain.put("AQID", Data("not json".utf8))
        let error = await #expect(throws: KeychainStoreError.self) { try await store.credentials(rpID: "example.com") }
        #expect(error?.status == KeychainStoreError.decode && error?.message.contains("AQID") == true)
    }
}
