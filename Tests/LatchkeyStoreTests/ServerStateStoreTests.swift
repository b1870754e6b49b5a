import Foundation
import LatchkeyTestSupport
import Testing

@testable import LatchkeyStore

/// The store parts added by the hardening (issue 14): shared secrets, sessions tied to their
/// passkey, and the SQLite file's mode.
@Suite("Server state in the store")
struct ServerStateStoreTests {
    let scratch = ScratchDirectory(prefix: "latchkey-state")

    @Test(arguments: Backend.available)
    func theFirstSecretStoredIsTheOneEveryoneGets(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let first = Data(repeating: 1, count: 32)
            let second = Data(repeating: 2, count: 32)
            #expect(try await store.serverSecret(named: "test", candidate: first) == first)
            #expect(try await store.serverSecret(named: "test", candidate: second) == first)
            #expect(try await store.serverSecret(named: "other", candidate: second) == second)
        }
    }

    @Test(arguments: Backend.available)
    func deletingAPasskeyDeletesTheSessionsMadeWithIt(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let user = try await store.createUser(named: "alice")
            let phone = Make.credential(of: user.id)
            let key = Make.credential(of: user.id)
            try await store.addCredential(phone)
            try await store.addCredential(key)
            let created = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let expires = created.addingTimeInterval(3600)
            let withPhone = StoredSession(
                tokenHash: Make.bytes(32), userID: user.id, createdAt: created, expiresAt: expires,
                credentialID: phone.id)
            let withKey = StoredSession(
                tokenHash: Make.bytes(32), userID: user.id, createdAt: created, expiresAt: expires, credentialID: key.id
            )
            let withPassword = StoredSession(
                tokenHash: Make.bytes(32), userID: user.id, createdAt: created, expiresAt: expires)
            for session in [withPhone, withKey, withPassword] { try await store.createSession(session) }
            #expect(
                try await store.session(tokenHash: withKey.tokenHash, now: Date()) == withKey, "the credential is kept")

            try await store.deleteCredential(id: key.id, ofUser: user.id, keepingAnotherWayIn: true)
            #expect(try await store.session(tokenHash: withKey.tokenHash, now: Date()) == nil)
            #expect(try await store.session(tokenHash: withPhone.tokenHash, now: Date()) == withPhone)
            #expect(try await store.session(tokenHash: withPassword.tokenHash, now: Date()) == withPassword)

            // The caller removing the passkey it signed in with keeps its own session, now tied to no passkey.
            let other = Make.credential(of: user.id)
            try await store.addCredential(other)
            let caller = StoredSession(
                tokenHash: Make.bytes(32), userID: user.id, createdAt: created, expiresAt: expires,
                credentialID: other.id)
            let elsewhere = StoredSession(
                tokenHash: Make.bytes(32), userID: user.id, createdAt: created, expiresAt: expires,
                credentialID: other.id)
            for session in [caller, elsewhere] { try await store.createSession(session) }
            try await store.deleteCredential(
                id: other.id, ofUser: user.id, keepingAnotherWayIn: true, sparingSession: caller.tokenHash)
            #expect(try await store.session(tokenHash: caller.tokenHash, now: Date())?.credentialID == nil)
            #expect(try await store.session(tokenHash: caller.tokenHash, now: Date()) != nil)
            #expect(try await store.session(tokenHash: elsewhere.tokenHash, now: Date()) == nil)
        }
    }

    @Test func theSQLiteFileIsTheOwnersOnly() throws {
        let path = scratch.path("store.sqlite")
        // Open while the files are looked at: a dropped store's last close removes the -wal and -shm files.
        let store = try SQLiteStore(path: path)
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(file) is \(String(mode, radix: 8))")
        }
        withExtendedLifetime(store) {}
    }
}
