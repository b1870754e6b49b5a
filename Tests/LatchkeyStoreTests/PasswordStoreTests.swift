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

    /// Attempts are taken before the password is checked: of eight at once, only as many as the budget allows get
    /// through (here three: the third sets a delay), whatever instance or thread they come from.
    @Test(arguments: Backend.available)
    func parallelAttemptsTakeTurnsWithinTheBudget(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            #expect(try await store.passwordThrottle(key: "name:alice") == nil)
            let delay: @Sendable (Int) -> TimeInterval = { $0 >= 3 ? 100 : 0 }
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.reservePasswordAttempt(key: "name:alice", now: Make.now, delay: delay) != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(granted == 3)
            let throttle = try #require(try await store.passwordThrottle(key: "name:alice"))
            #expect(throttle.failures == 3)
            #expect(abs(throttle.nextAllowedAt.timeIntervalSince(Make.now) - 100) < 0.01)
            // Refused while throttled, and a refusal changes nothing.
            #expect(
                try await store.reservePasswordAttempt(
                    key: "name:alice", now: Make.now.addingTimeInterval(99), delay: delay) == nil)
            #expect(try await store.passwordThrottle(key: "name:alice") == throttle)
            let next = try #require(
                try await store.reservePasswordAttempt(
                    key: "name:alice", now: Make.now.addingTimeInterval(101), delay: delay))
            #expect(next.failures == 4)
            #expect(try await store.passwordThrottle(key: "name:bob") == nil)

            #expect(try await store.purgePasswordThrottles(lastFailureBefore: Make.now.addingTimeInterval(30)) == 0)
            try await store.clearPasswordFailures(key: "name:alice")
            #expect(try await store.passwordThrottle(key: "name:alice") == nil)
            _ = try await store.reservePasswordAttempt(key: "name:carol", now: Make.now) { _ in 0 }
            #expect(try await store.purgePasswordThrottles(lastFailureBefore: Make.now.addingTimeInterval(1)) == 1)
            await expectStoreError(.invalidRecord) {
                _ = try await store.reservePasswordAttempt(key: "", now: Make.now) { _ in 0 }
            }
        }
    }

    /// A key never tried is open at the instant of its first attempt, whatever that instant's fraction of a
    /// microsecond (PostgreSQL keeps whole microseconds: a time read back can come out a hair after the one written,
    /// which once closed a fresh key; instants 497 and 970 below are such times).
    @Test(arguments: Backend.available)
    func aFreshKeyIsOpenAtAnyInstant(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            var refused: [Int] = []
            for step in 0..<1_000 {
                let now = Make.now.addingTimeInterval(Double(step) * 0.000_000_37)
                if try await store.reservePasswordAttempt(key: "fresh:\(step)", now: now, delay: { _ in 0 }) == nil {
                    refused.append(step)
                }
            }
            #expect(refused == [])
        }
    }
}
