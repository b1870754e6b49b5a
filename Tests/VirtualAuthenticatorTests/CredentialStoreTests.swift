import Foundation
import Testing
import VirtualAuthenticator
import WebAuthn

/// The credential store and the stored record: what survives between authenticators and processes.
@Suite("Credential store")
struct CredentialStoreTests {
    @Test("the stored record holds what the authenticator knows about the account")
    func storedRecord() async throws {
        let harness = Harness(
            .testing {
                $0.backupEligible = true
                $0.backedUp = true
            })
        let record = try await harness.registeredRecord(algorithm: .edDSA)
        let stored = try #require(try await harness.authenticator.store.credential(id: record.id))
        #expect(stored.rpID == Harness.rpID)
        #expect(stored.userHandle == Harness.alice.id.bytes)
        #expect(stored.userName == Harness.alice.name)
        #expect(stored.userDisplayName == Harness.alice.displayName)
        #expect(stored.algorithm == .edDSA)
        #expect(stored.privateKey.count == 32)
        #expect(stored.signCount == 0)
        #expect(stored.isDiscoverable && stored.backupEligible && stored.backedUp)
        #expect(abs(stored.createdAt.timeIntervalSinceNow) < 60)
    }

    @Test(
        "a record survives JSON and a new authenticator signs with it",
        arguments: VirtualAuthenticator.supportedAlgorithms)
    func portableKeys(algorithm: COSEAlgorithm) async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord(algorithm: algorithm)
        let stored = try #require(try await harness.authenticator.store.credential(id: record.id))

        let json = try JSONEncoder().encode(stored)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""privateKey":""#) && text.contains(#""id":"\#(Base64URL.encode(stored.id))""#))
        let decoded = try JSONDecoder().decode(CredentialSource.self, from: json)
        #expect(decoded == stored)

        let moved = Harness(store: InMemoryCredentialStore([decoded]))
        let authentication = try await moved.signIn(record)
        #expect(authentication.newSignCount == 1)
    }

    @Test("a stored key that does not load → storedKeyMalformed")
    func corruptStoredKey() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        var stored = try #require(try await harness.authenticator.store.credential(id: record.id))
        stored.privateKey = [1, 2, 3]
        try await harness.authenticator.store.save(stored)
        let error = await #expect(throws: VirtualAuthenticatorError.self) {
            try await harness.signIn(record)
        }
        guard case .storedKeyMalformed = error else {
            Issue.record("expected storedKeyMalformed, got \(String(describing: error))")
            return
        }
    }

    @Test("a key loaded for an earlier sign-in is not used once the stored key changes")
    func storedKeyChangedAfterUse() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        #expect(try await harness.signIn(record).newSignCount == 1)
        #expect(try await harness.signIn(record).newSignCount == 2)

        // Another valid key under the same ID: the relying party, holding the first public key, must refuse it.
        let other = try await harness.registeredRecord(residentKey: .discouraged)
        var stored = try #require(try await harness.authenticator.store.credential(id: record.id))
        stored.privateKey = try #require(try await harness.authenticator.store.credential(id: other.id)).privateKey
        try await harness.authenticator.store.save(stored)
        let refused = await #expect(throws: WebAuthnError.self) { try await harness.signIn(record) }
        #expect(refused?.code == .badSignature, "signed with the new key, not a stale cached one")

        // A key that does not load at all.
        stored.privateKey = [1, 2, 3]
        try await harness.authenticator.store.save(stored)
        let error = await #expect(throws: VirtualAuthenticatorError.self) { try await harness.signIn(record) }
        guard case .storedKeyMalformed = error else {
            Issue.record("expected storedKeyMalformed, got \(String(describing: error))")
            return
        }
    }

    @Test("in-memory store: save, load, list by RP ID oldest first, replace, delete")
    func inMemoryStore() async throws {
        let memory = InMemoryCredentialStore()
        let store: any CredentialStore = memory
        func credential(_ id: UInt8, rp: String, age: TimeInterval) -> CredentialSource {
            CredentialSource(
                id: [id], rpID: rp, userHandle: [id], userName: "user\(id)", userDisplayName: "User \(id)",
                algorithm: .es256, privateKey: [], isDiscoverable: true, backupEligible: false, backedUp: false,
                createdAt: Date(timeIntervalSince1970: 1_000_000 - age)
            )
        }
        try await store.save(credential(1, rp: "a.example", age: 10))
        try await store.save(credential(2, rp: "a.example", age: 20))
        try await store.save(credential(3, rp: "b.example", age: 30))
        #expect(try await store.credentials(rpID: "a.example").map(\.id) == [[2], [1]])
        #expect(try await store.credentials(rpID: "c.example").isEmpty)

        var renamed = try #require(try await store.credential(id: [1]))
        renamed.userName = "renamed"
        try await store.save(renamed)
        #expect(try await store.credential(id: [1])?.userName == "renamed")
        #expect(await memory.all.count == 3)

        try await store.delete(id: [1])
        try await store.delete(id: [42])
        #expect(try await store.credential(id: [1]) == nil)
        #expect(await memory.all.map(\.id) == [[3], [2]])
    }

    @Test("a deleted credential can no longer sign in")
    func deletedCredential() async throws {
        let harness = Harness()
        let record = try await harness.registeredRecord()
        try await harness.authenticator.store.delete(id: record.id)
        await #expect(throws: VirtualAuthenticatorError.noMatchingCredential(rpID: Harness.rpID)) {
            try await harness.signIn(record)
        }
    }

    @Test("a failing store surfaces as storeFailed")
    func failingStore() async throws {
        let harness = Harness(store: FailingStore())
        let error = await #expect(throws: VirtualAuthenticatorError.self) {
            try await harness.create(harness.creationOptions())
        }
        guard case .storeFailed = error else {
            Issue.record("expected storeFailed, got \(String(describing: error))")
            return
        }
    }

    @Test("concurrent sign-ins each get their own counter value, even with a store that suspends")
    func concurrentSignIns() async throws {
        let harness = Harness(store: YieldingStore())
        let record = try await harness.registeredRecord()
        let options = harness.requestOptions(allowing: [record])
        let counts = try await withThrowingTaskGroup(of: UInt32.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let credential = try await harness.authenticator.authenticate(
                        options: options, origin: harness.origin)
                    return try AuthenticatorData(bytes: credential.response.authenticatorData.bytes).signCount
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.sorted() == Array(1...16))
    }
}

/// A store whose every operation fails.
private struct FailingStore: CredentialStore {
    struct Failure: Error {}
    func save(_ credential: CredentialSource) async throws { throw Failure() }
    func credential(id: [UInt8]) async throws -> CredentialSource? { throw Failure() }
    func credentials(rpID: String) async throws -> [CredentialSource] { throw Failure() }
    func delete(id: [UInt8]) async throws { throw Failure() }
}

/// An in-memory store that suspends before every operation, as a store doing I/O would, so that
/// ceremonies interleave if the authenticator lets them.
private struct YieldingStore: CredentialStore {
    let base = InMemoryCredentialStore()
    private func suspend() async {
        for _ in 0..<4 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(1))
    }
    func save(_ credential: CredentialSource) async throws {
        await suspend()
        await base.save(credential)
    }
    func credential(id: [UInt8]) async throws -> CredentialSource? {
        await suspend()
        return await base.credential(id: id)
    }
    func credentials(rpID: String) async throws -> [CredentialSource] {
        await suspend()
        return await base.credentials(rpID: rpID)
    }
    func delete(id: [UInt8]) async throws {
        await suspend()
        await base.delete(id: id)
    }
}
