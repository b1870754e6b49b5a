import Foundation
import Testing

@testable import LatchkeyStore

/// The password part of the store (``PasswordStore``), against each backend.
@Suite("Passwords in the store")
struct PasswordStoreTests {
    static let hash = "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"

    @Test(arguments: Backend.available)
    func signUpWritesUserHashAndSessionTogether(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user(name: "alice")
            let session = Make.session(of: user.id)
            try await store.commitPasswordSignUp(user, passwordHash: Self.hash, session: session)
            #expect(try await store.user(id: user.id) == user)
            #expect(try await store.passwordHash(ofUser: user.id) == Self.hash)
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == session)

            // The name again: conflict, and no hash or session for the second user.
            let other = Make.user(name: "ALICE")
            let otherSession = Make.session(of: other.id)
            await expectStoreError(.conflict) {
                try await store.commitPasswordSignUp(other, passwordHash: Self.hash, session: otherSession)
            }
            #expect(try await store.passwordHash(ofUser: other.id) == nil)
            #expect(try await store.session(tokenHash: otherSession.tokenHash, now: Make.now) == nil)
            await expectStoreError(.invalidRecord) {
                try await store.commitPasswordSignUp(Make.user(), passwordHash: Self.hash, session: session)
            }
            await expectStoreError(.invalidRecord) {
                try await store.commitPasswordSignUp(other, passwordHash: "", session: otherSession)
            }
            #expect(try await store.user(id: other.id) == nil)

            // Deleting the user takes the password with it.
            try await store.deleteUser(id: user.id)
            #expect(try await store.passwordHash(ofUser: user.id) == nil)
        }
    }

    @Test(arguments: Backend.available)
    func setReplaceAndDelete(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            try await store.createUser(user)
            #expect(try await store.passwordHash(ofUser: user.id) == nil)
            await expectStoreError(.notFound) {
                try await store.deletePassword(ofUser: user.id, keepingAnotherWayIn: false)
            }
            await expectStoreError(.notFound) {
                try await store.setPasswordHash(Self.hash, ofUser: UUID(), now: Make.now)
            }

            try await store.setPasswordHash(Self.hash, ofUser: user.id, now: Make.now)
            try await store.setPasswordHash(Self.hash + "x", ofUser: user.id, now: Make.now)
            #expect(try await store.passwordHash(ofUser: user.id) == Self.hash + "x")
            // A rehash only replaces the hash it was computed from.
            #expect(
                try await store.replacePasswordHash(ofUser: user.id, expected: Self.hash, with: "new", now: Make.now)
                    == false)
            #expect(
                try await store.replacePasswordHash(
                    ofUser: user.id, expected: Self.hash + "x", with: "new", now: Make.now))
            #expect(try await store.passwordHash(ofUser: user.id) == "new")

            // The only way in stays; with a passkey beside it, it can go.
            await expectStoreError(.conflict) {
                try await store.deletePassword(ofUser: user.id, keepingAnotherWayIn: true)
            }
            #expect(try await store.passwordHash(ofUser: user.id) == "new")
            let credential = Make.credential(of: user.id)
            try await store.addCredential(credential)
            // And the last passkey can go while the password stays.
            try await store.deleteCredential(id: credential.id, ofUser: user.id, keepingAnotherWayIn: true)
            try await store.addCredential(Make.credential(of: user.id))
            try await store.deletePassword(ofUser: user.id, keepingAnotherWayIn: true)
            #expect(try await store.passwordHash(ofUser: user.id) == nil)
        }
    }

    @Test(arguments: Backend.available)
    func throttleCountsEveryConcurrentFailure(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            #expect(try await store.passwordThrottle(key: "name:alice") == nil)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.recordPasswordFailure(key: "name:alice", now: Make.now) { TimeInterval($0) }
                    }
                }
                try await group.waitForAll()
            }
            let throttle = try #require(try await store.passwordThrottle(key: "name:alice"))
            #expect(throttle.failures == 8)
            #expect(abs(throttle.nextAllowedAt.timeIntervalSince(Make.now) - 8) < 0.01)
            let next = try await store.recordPasswordFailure(key: "name:alice", now: Make.now.addingTimeInterval(60)) {
                _ in 100
            }
            #expect(next.failures == 9)
            #expect(try await store.passwordThrottle(key: "name:bob") == nil)

            #expect(try await store.purgePasswordThrottles(lastFailureBefore: Make.now.addingTimeInterval(30)) == 0)
            try await store.clearPasswordFailures(key: "name:alice")
            #expect(try await store.passwordThrottle(key: "name:alice") == nil)
            try await store.recordPasswordFailure(key: "name:carol", now: Make.now) { _ in 0 }
            #expect(try await store.purgePasswordThrottles(lastFailureBefore: Make.now.addingTimeInterval(1)) == 1)
            await expectStoreError(.invalidRecord) {
                try await store.recordPasswordFailure(key: "", now: Make.now) { _ in 0 }
            }
        }
    }
}
