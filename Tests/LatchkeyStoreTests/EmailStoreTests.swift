import Foundation
import Testing

@testable import LatchkeyStore

/// The email part of the store (``EmailStore``), against each backend.
@Suite("Email in the store")
struct EmailStoreTests {
    static let code = Make.bytes(32)
    static let other = Make.bytes(32)
    static var later: Date { Make.now.addingTimeInterval(600) }

    @Test(arguments: Backend.available)
    func addVerifyAndPrimary(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "alice")
            let add = { @Sendable (address: String, code: Data) async throws -> StoredEmail.Addition in
                try await store.addEmail(
                    address, toUser: user.id, codeHash: code, codeExpiresAt: Self.later, now: Make.now)
            }
            #expect(try await add("Alice@Example.com", Self.code) == .added)
            #expect(try await store.emails(ofUser: user.id).map(\.address) == ["Alice@Example.com"])
            // A wrong code, another account's try, and an expired code verify nothing.
            #expect(
                try await !store.verifyEmail("alice@example.com", ofUser: user.id, codeHash: Self.other, now: Make.now))
            #expect(
                try await !store.verifyEmail("alice@example.com", ofUser: UUID(), codeHash: Self.code, now: Make.now))
            #expect(
                try await !store.verifyEmail("alice@example.com", ofUser: user.id, codeHash: Self.code, now: Self.later)
            )
            // The right code, the address in another case: verified, primary, and the code is spent.
            #expect(
                try await store.verifyEmail("ALICE@example.com", ofUser: user.id, codeHash: Self.code, now: Make.now))
            #expect(
                try await !store.verifyEmail("alice@example.com", ofUser: user.id, codeHash: Self.code, now: Make.now))
            var emails = try await store.emails(ofUser: user.id)
            #expect(emails.count == 1 && emails[0].isPrimary && emails[0].verifiedAt != nil)
            #expect(try await add("alice@example.com", Self.other) == .alreadyVerified)

            // A second address verified is not primary until made so; making an unverified one primary fails.
            #expect(try await add("work@example.com", Self.other) == .added)
            await expectStoreError(.notFound) { try await store.makePrimaryEmail("work@example.com", ofUser: user.id) }
            #expect(
                try await store.verifyEmail("work@example.com", ofUser: user.id, codeHash: Self.other, now: Make.now))
            try await store.makePrimaryEmail("WORK@example.com", ofUser: user.id)
            emails = try await store.emails(ofUser: user.id)
            #expect(emails.map(\.address) == ["work@example.com", "Alice@Example.com"])
            #expect(emails.map(\.isPrimary) == [true, false])

            // Removing the primary makes the other verified address primary.
            try await store.removeEmail("work@example.com", ofUser: user.id)
            emails = try await store.emails(ofUser: user.id)
            #expect(emails.map(\.address) == ["Alice@Example.com"] && emails[0].isPrimary)
            await expectStoreError(.notFound) { try await store.removeEmail("work@example.com", ofUser: user.id) }

            // At most five addresses; deleting the user removes them.
            for index in 1...4 { #expect(try await add("a\(index)@example.com", Self.code) == .added) }
            #expect(try await add("a5@example.com", Self.code) == .tooMany)
            await expectStoreError(.notFound) {
                _ = try await store.addEmail(
                    "x@example.com", toUser: UUID(), codeHash: Self.code, codeExpiresAt: Self.later, now: Make.now)
            }
            await expectStoreError(.invalidRecord) {
                _ = try await store.addEmail(
                    "x@example.com", toUser: user.id, codeHash: Data(), codeExpiresAt: Self.later, now: Make.now)
            }
            try await store.deleteUser(id: user.id)
            #expect(try await store.emails(ofUser: user.id).isEmpty)
        }
    }

    @Test(arguments: Backend.available)
    func aVerifiedAddressBelongsToOneAccount(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let (ann, bob) = (try await store.createUser(named: "ann"), try await store.createUser(named: "bob"))
            for user in [ann, bob] {
                #expect(
                    try await store.addEmail(
                        "shared@example.com", toUser: user.id, codeHash: Self.code, codeExpiresAt: Self.later,
                        now: Make.now) == .added)
            }
            #expect(try await store.userID(verifiedEmail: "shared@example.com") == nil, "not verified yet")
            #expect(
                try await store.verifyEmail("shared@example.com", ofUser: ann.id, codeHash: Self.code, now: Make.now))
            #expect(try await store.userID(verifiedEmail: "SHARED@example.com") == ann.id)
            await expectStoreError(.conflict) {
                _ = try await store.verifyEmail(
                    "shared@example.com", ofUser: bob.id, codeHash: Self.code, now: Make.now)
            }
            #expect(try await store.emails(ofUser: bob.id).first?.verifiedAt == nil)
        }
    }

    @Test(arguments: Backend.available)
    func recoveryCodes(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = try await store.createUser(named: "carol")
            _ = try await store.addEmail(
                "carol@example.com", toUser: user.id, codeHash: Self.code, codeExpiresAt: Self.later, now: Make.now)
            // Not verified yet: no recovery code.
            #expect(
                try await store.setEmailRecoveryCode(
                    address: "carol@example.com", codeHash: Self.other, expiresAt: Self.later) == nil)
            #expect(
                try await store.verifyEmail("carol@example.com", ofUser: user.id, codeHash: Self.code, now: Make.now))
            #expect(
                try await store.setEmailRecoveryCode(
                    address: "nobody@example.com", codeHash: Self.other, expiresAt: Self.later) == nil)
            let stored = try await store.setEmailRecoveryCode(
                address: "CAROL@example.com", codeHash: Self.other, expiresAt: Self.later)
            #expect(stored?.userID == user.id && stored?.address == "carol@example.com" && stored?.isPrimary == true)
            #expect(
                try await store.consumeEmailRecoveryCode(
                    address: "carol@example.com", codeHash: Self.code, now: Make.now) == nil)
            #expect(
                try await store.consumeEmailRecoveryCode(
                    address: "carol@example.com", codeHash: Self.other, now: Self.later) == nil, "expired")

            // Of concurrent uses of one code exactly one wins.
            let winners = try await withThrowingTaskGroup(of: UUID?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.consumeEmailRecoveryCode(
                            address: "carol@example.com", codeHash: Self.other, now: Make.now)
                    }
                }
                return try await group.reduce(into: [UUID]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(winners == [user.id])
        }
    }

    @Test(arguments: Backend.available)
    func outbox(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let first = StoredMail(recipient: "a@example.com", subject: "one", body: "1", createdAt: Make.now)
            let second = StoredMail(
                recipient: "b@example.com", subject: "two", body: "2", createdAt: Make.now,
                nextAttemptAt: Make.now.addingTimeInterval(60))
            #expect(try await store.enqueueMail(first, limit: 2))
            #expect(try await store.enqueueMail(second, limit: 2))
            #expect(
                try await !store.enqueueMail(
                    StoredMail(recipient: "c@example.com", subject: "", body: "", createdAt: Make.now), limit: 2),
                "full")

            // Only what is due is claimed; a claim counts an attempt and leases the message.
            let claimed = try await store.claimMail(now: Make.now, lease: 300, limit: 10)
            #expect(claimed.map(\.id) == [first.id] && claimed[0].attempts == 1)
            #expect(claimed[0].body == "1" && claimed[0].recipient == "a@example.com")
            #expect(try await store.claimMail(now: Make.now.addingTimeInterval(10), lease: 300, limit: 10).isEmpty)
            try await store.rescheduleMail(id: first.id, at: Make.now.addingTimeInterval(30))
            let both = try await store.claimMail(now: Make.now.addingTimeInterval(90), lease: 300, limit: 10)
            #expect(Set(both.map(\.id)) == [first.id, second.id])
            #expect(both.first { $0.id == first.id }?.attempts == 2)
            try await store.deleteMail(id: first.id)
            try await store.deleteMail(id: second.id)
            #expect(try await store.claimMail(now: Make.now.addingTimeInterval(10_000), lease: 300, limit: 10).isEmpty)
        }
    }

    @Test("instances claiming at once take each message once", arguments: Backend.available)
    func concurrentClaims(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            for index in 0..<30 {
                #expect(
                    try await store.enqueueMail(
                        StoredMail(recipient: "r\(index)@example.com", subject: "", body: "", createdAt: Make.now),
                        limit: 100))
            }
            let claimed = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for _ in 0..<4 {
                    group.addTask { try await store.claimMail(now: Make.now, lease: 300, limit: 10).map(\.id) }
                }
                return try await group.reduce(into: [UUID]()) { $0 += $1 }
            }
            #expect(claimed.count == 30 && Set(claimed).count == 30)
        }
    }
}
