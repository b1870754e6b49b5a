import Foundation
import Testing

@testable import LatchkeyStore

/// Every behaviour of ``LatchkeyStore``, run against each backend: a SQLite file, and the PostgreSQL server named
/// by `LATCHKEY_TEST_POSTGRES_URL` when it is set.
@Suite("LatchkeyStore behaviour")
struct StoreBehaviourTests {
    @Test("PostgreSQL backend is configured", .enabled(if: Backend.postgresURL != nil, "\(Backend.skipMessage)"))
    func postgresIsConfigured() async throws {
        let count = try await withStore(.postgres) { store in try await store.credentialCount(ofUser: UUID()) }
        #expect(count == 0)
    }

    // MARK: Users

    @Test(arguments: Backend.available)
    func createAndFindUser(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user(name: "Ålice.Example")
            try await store.createUser(user)

            #expect(try await store.user(id: user.id) == user)
            #expect(try await store.user(handle: user.userHandle) == user)
            #expect(try await store.user(named: "Ålice.Example") == user)
            #expect(try await store.user(named: "åLICE.example") == user, "names are found case-insensitively")
            // "Å" spelled as A + combining ring finds the precomposed spelling.
            #expect(
                try await store.user(named: "A\u{030A}lice.example") == user,
                "names are found regardless of normalisation")

            #expect(try await store.user(id: UUID()) == nil)
            #expect(try await store.user(handle: Make.bytes(32)) == nil)
            #expect(try await store.user(named: "bob") == nil)
        }
    }

    @Test(arguments: Backend.available)
    func duplicateUserValuesConflict(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")

            await expectStoreError(.conflict) { try await store.createUser(Make.user(name: "ALICE")) }
            await expectStoreError(.conflict) {
                try await store.createUser(Make.user(name: "carol", handle: alice.userHandle))
            }
            var sameID = Make.user(name: "dave")
            sameID.id = alice.id
            await expectStoreError(.conflict) { try await store.createUser(sameID) }

            #expect(try await store.user(named: "carol") == nil)
            #expect(try await store.user(named: "dave") == nil)
            #expect(try await store.user(named: "alice") == alice)
        }
    }

    @Test(arguments: Backend.available)
    func invalidRecordsAreRefused(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            await expectStoreError(.invalidRecord) { try await store.createUser(Make.user(handle: Make.bytes(65))) }
            await expectStoreError(.invalidRecord) { try await store.createUser(Make.user(handle: Data())) }
            await expectStoreError(.invalidRecord) { try await store.createUser(Make.user(name: "")) }

            let user = Make.user()
            try await store.createUser(user)
            await expectStoreError(.invalidRecord) {
                try await store.addCredential(Make.credential(of: user.id, id: Data()))
            }
            await expectStoreError(.invalidRecord) {
                try await store.addCredential(Make.credential(of: user.id, id: Make.bytes(1024)))
            }
            await expectStoreError(.invalidRecord) {
                try await store.createSession(Make.session(of: user.id, tokenHash: Make.bytes(31)))
            }
            await expectStoreError(.invalidRecord) {
                try await store.spendTicket(SpentTicket(id: "not/url safe", expiresAt: Make.now))
            }
            await expectStoreError(.invalidRecord) {
                try await store.spendTicket(SpentTicket(id: "", expiresAt: Make.now))
            }
            for letter in ["é", "ｱ", "Ａ", "٣"] {  // letters and digits outside ASCII
                await expectStoreError(.invalidRecord) {
                    try await store.spendTicket(SpentTicket(id: "ticket\(letter)", expiresAt: Make.now))
                }
            }

            #expect(try await store.credentialCount(ofUser: user.id) == 0)
        }
    }

    // MARK: Credentials

    @Test(arguments: Backend.available)
    func credentialLifecycle(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let bob = try await store.createUser(named: "bob")
            let first = Make.credential(of: alice.id, createdAt: Make.now)
            var second = Make.credential(of: alice.id, signCount: .max, createdAt: Make.now.addingTimeInterval(60))
            second.transports = []
            second.discoverable = nil
            second.label = "Work laptop"
            second.lastUsedAt = Make.now.addingTimeInterval(120)
            try await store.addCredential(second)
            try await store.addCredential(first)

            #expect(try await store.credential(id: first.id) == first)
            #expect(
                try await store.credential(id: second.id) == second,
                "empty transports, nil discoverable and UInt32.max round-trip")
            #expect(try await store.credential(id: Make.bytes(32)) == nil)
            #expect(try await store.credentials(ofUser: alice.id) == [first, second], "oldest first")
            #expect(try await store.credentialCount(ofUser: alice.id) == 2)
            #expect(try await store.credentials(ofUser: bob.id).isEmpty)

            try await store.renameCredential(id: first.id, ofUser: alice.id, to: "Phone")
            #expect(try await store.credential(id: first.id)?.label == "Phone")
            try await store.renameCredential(id: first.id, ofUser: alice.id, to: nil)
            #expect(try await store.credential(id: first.id)?.label == nil)

            await expectStoreError(.notFound) {
                try await store.renameCredential(id: first.id, ofUser: bob.id, to: "mine now")
            }
            await expectStoreError(.notFound) {
                try await store.deleteCredential(id: first.id, ofUser: bob.id, keepingAnotherWayIn: false)
            }
            await expectStoreError(.notFound) {
                try await store.renameCredential(id: Make.bytes(16), ofUser: alice.id, to: "x")
            }
            #expect(try await store.credential(id: first.id)?.label == nil, "another user's rename changed nothing")

            try await store.deleteCredential(id: first.id, ofUser: alice.id, keepingAnotherWayIn: false)
            #expect(try await store.credential(id: first.id) == nil)
            #expect(try await store.credentialCount(ofUser: alice.id) == 1)
            await expectStoreError(.notFound) {
                try await store.deleteCredential(id: first.id, ofUser: alice.id, keepingAnotherWayIn: false)
            }
        }
    }

    @Test(arguments: Backend.available)
    func duplicateCredentialIDConflictsAndWritesNothing(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let bob = try await store.createUser(named: "bob")
            let original = Make.credential(of: alice.id)
            try await store.addCredential(original)

            var duplicate = Make.credential(of: bob.id, id: original.id, signCount: 99)
            duplicate.label = "Bob's key"
            await expectStoreError(.conflict) { try await store.addCredential(duplicate) }

            #expect(try await store.credential(id: original.id) == original, "the registered credential is untouched")
            #expect(try await store.credentialCount(ofUser: bob.id) == 0, "nothing was written for bob")
        }
    }

    @Test(arguments: Backend.available)
    func credentialOfUnknownUserIsNotFound(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let credential = Make.credential(of: UUID())
            await expectStoreError(.notFound) { try await store.addCredential(credential) }
            #expect(try await store.credential(id: credential.id) == nil)
        }
    }

    @Test(
        "an account reads back in one call, by name and by credential, with its credentials oldest first",
        arguments: Backend.available)
    func accountReadsBackWithItsCredentials(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let user = Make.user(name: "Reader")
            #expect(try await store.account(named: "reader") == nil)
            try await store.createUser(user)
            #expect(
                try await store.account(named: "READER") == StoredAccount(user: user, credentials: []),
                "no credentials yet")
            let first = Make.unusualCredential(of: user.id, createdAt: Date(timeIntervalSince1970: 1_000.125))
            let second = Make.credential(of: user.id, createdAt: Date(timeIntervalSince1970: 2_000))
            try await store.commitRegistration(second, creating: nil, session: nil)
            try await store.commitRegistration(first, creating: nil, session: nil)
            let other = try await store.createUser(named: "other")
            try await store.commitRegistration(Make.credential(of: other.id), creating: nil, session: nil)

            let account = StoredAccount(user: user, credentials: [first, second])
            #expect(try await store.account(named: "reader") == account)
            #expect(try await store.account(ofCredential: first.id) == account)
            #expect(try await store.account(ofCredential: second.id) == account)
            #expect(try await store.account(ofCredential: Make.bytes(32)) == nil)
            #expect(try await store.account(named: "nobody") == nil)
        }
    }

    // MARK: Spent tickets

    @Test("a ticket is spent once", arguments: Backend.available)
    func ticketIsSpentOnce(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let ticket = Make.ticket()
            #expect(try await store.spendTicket(ticket))
            #expect(try await store.spendTicket(ticket) == false)
            #expect(
                try await store.spendTicket(SpentTicket(id: ticket.id, expiresAt: ticket.expiresAt)) == false,
                "a ticket is its ID with its expiry (SpentTicket.id)")
            #expect(try await store.spendTicket(Make.ticket()), "another ticket is not affected")
        }
    }

    @Test("of concurrent spenders of one ticket exactly one succeeds", arguments: Backend.available)
    func concurrentSpendersSpendTheTicketExactlyOnce(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let ticket = Make.ticket()
            let outcomes = await withTaskGroup(of: Bool?.self) { group in
                for _ in 0..<20 {
                    group.addTask { try? await store.spendTicket(ticket) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == true }.count == 1)
            #expect(outcomes.filter { $0 == false }.count == 19, "\(outcomes)")
        }
    }

    @Test("purging removes only the spent tickets that have expired", arguments: Backend.available)
    func purgeRemovesOnlyExpiredTickets(_ backend: Backend) async throws {
        try await withStore(backend) { store throws in
            let expired = [Make.ticket(expiresAt: Make.now.addingTimeInterval(-1)), Make.ticket(expiresAt: Make.now)]
            let live = Make.ticket(expiresAt: Make.now.addingTimeInterval(1))
            for ticket in expired + [live] { #expect(try await store.spendTicket(ticket)) }

            #expect(try await store.purgeSpentTickets(now: Make.now) == 2)
            #expect(try await store.purgeSpentTickets(now: Make.now) == 0)
            #expect(try await store.spendTicket(live) == false, "a live ticket stays spent")
        }
    }

    // MARK: Sessions

    @Test(arguments: Backend.available)
    func sessionLifecycle(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let bob = try await store.createUser(named: "bob")
            let session = Make.session(of: alice.id)
            let other = Make.session(of: alice.id)
            let short = Make.session(of: alice.id, expiresAt: Make.now.addingTimeInterval(10))
            let bobs = Make.session(of: bob.id)
            for item in [session, other, short, bobs] { try await store.createSession(item) }
            await expectStoreError(.conflict) {
                try await store.createSession(Make.session(of: bob.id, tokenHash: session.tokenHash))
            }
            await expectStoreError(.notFound) { try await store.createSession(Make.session(of: UUID())) }

            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == session)
            #expect(try await store.session(tokenHash: Make.bytes(32), now: Make.now) == nil)
            #expect(
                try await store.session(tokenHash: short.tokenHash, now: Make.now.addingTimeInterval(10)) == nil,
                "expired → nil")

            try await store.deleteSession(tokenHash: session.tokenHash)
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)
            try await store.deleteSession(tokenHash: session.tokenHash)  // logging out twice is fine

            #expect(try await store.purgeExpiredSessions(now: Make.now.addingTimeInterval(10)) == 1)
            #expect(try await store.deleteSessions(ofUser: alice.id) == 1)
            #expect(try await store.session(tokenHash: other.tokenHash, now: Make.now) == nil)
            #expect(
                try await store.session(tokenHash: bobs.tokenHash, now: Make.now) == bobs,
                "other users keep their sessions")
        }
    }

    @Test(
        "sessions keep their device, network and verification, list newest first, and record when seen",
        arguments: Backend.available)
    func sessionsAsDevices(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let bob = try await store.createUser(named: "bob")
            var phone = Make.session(of: alice.id)
            phone.device = "Safari on iPhone"
            phone.network = "203.0.113.0/24"
            phone.verifiedAt = Make.now
            var laptop = Make.session(of: alice.id)
            laptop.createdAt = Make.now.addingTimeInterval(60)
            let expired = Make.session(of: alice.id, expiresAt: Make.now.addingTimeInterval(1))
            for item in [phone, laptop, expired, Make.session(of: bob.id)] { try await store.createSession(item) }

            let listed = try await store.sessions(ofUser: alice.id, now: Make.now.addingTimeInterval(2))
            #expect(listed == [laptop, phone], "live ones only, newest first, each as stored")

            try await store.markSessionSeen(tokenHash: phone.tokenHash, at: Make.now.addingTimeInterval(120))
            try await store.markSessionSeen(tokenHash: Make.bytes(32), at: Make.now)  // unknown: no error
            let seen = try await store.session(tokenHash: phone.tokenHash, now: Make.now)
            #expect(seen?.lastSeenAt == Make.now.addingTimeInterval(120))
            #expect(seen?.device == "Safari on iPhone" && seen?.verifiedAt == Make.now)

            var long = Make.session(of: alice.id)
            long.device = String(repeating: "x", count: StoredSession.maximumDeviceLength + 1)
            await expectStoreError(.invalidRecord) { try await store.createSession(long) }
        }
    }

    @Test("an account keeps at most its newest sessions; making one more ends the oldest", arguments: Backend.available)
    func sessionsAreCappedPerAccount(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let bob = try await store.createUser(named: "bob")
            let bobs = Make.session(of: bob.id)
            try await store.createSession(bobs)
            var made: [StoredSession] = []
            for index in 0..<(StoredSession.maximumPerAccount + 2) {
                var session = Make.session(of: alice.id)
                session.createdAt = Make.now.addingTimeInterval(Double(index))
                try await store.createSession(session)
                made.append(session)
            }
            let listed = try await store.sessions(ofUser: alice.id, now: Make.now)
            #expect(listed.count == StoredSession.maximumPerAccount)
            #expect(Set(listed) == Set(made.dropFirst(2)), "the two oldest ended")
            #expect(try await store.session(tokenHash: bobs.tokenHash, now: Make.now) == bobs, "another account's stay")
        }
    }

    @Test("a sign-in's session is stored with its verification, device and network", arguments: Backend.available)
    func signInSessionKeepsItsFields(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let credential = Make.credential(of: alice.id)
            try await store.commitRegistration(credential, creating: nil, session: nil)
            var session = Make.session(of: alice.id)
            session.credentialID = credential.id
            session.verifiedAt = Make.now
            session.device = "Latchkey app"
            session.network = "2001:db8:1::/48"
            let ticket = SpentTicket(id: UUID().uuidString, expiresAt: Make.now.addingTimeInterval(60))
            #expect(
                try await store.commitAuthentication(
                    spending: ticket, credentialID: credential.id, newSignCount: 1, backupEligible: true,
                    backedUp: false, usedAt: Make.now,
                    session: session, previousSignCount: 0))
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == session)
        }
    }

    @Test(
        "recovery codes: a new set replaces the old, each is used once (of concurrent uses one wins), deleting the user removes them",
        arguments: Backend.available)
    func recoveryCodes(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let bob = try await store.createUser(named: "bob")
            let old = [Make.bytes(32), Make.bytes(32)]
            try await store.replaceRecoveryCodes(ofUser: alice.id, hashes: old, now: Make.now)
            let codes = (0..<3).map { _ in Make.bytes(32) }
            try await store.replaceRecoveryCodes(ofUser: alice.id, hashes: codes, now: Make.now)
            #expect(try await store.recoveryCodeCount(ofUser: alice.id) == 3)
            #expect(try await store.consumeRecoveryCode(ofUser: alice.id, hash: old[0]) == false, "the old set is gone")
            #expect(try await store.consumeRecoveryCode(ofUser: bob.id, hash: codes[0]) == false, "another user's code")

            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await store.consumeRecoveryCode(ofUser: alice.id, hash: codes[0]) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
            #expect(try await store.recoveryCodeCount(ofUser: alice.id) == 2)

            await expectStoreError(.invalidRecord) {
                try await store.replaceRecoveryCodes(ofUser: alice.id, hashes: [Make.bytes(31)], now: Make.now)
            }
            await expectStoreError(.notFound) {
                try await store.replaceRecoveryCodes(ofUser: UUID(), hashes: [Make.bytes(32)], now: Make.now)
            }
            try await store.deleteUser(id: alice.id)
            #expect(try await store.recoveryCodeCount(ofUser: alice.id) == 0)
        }
    }

    @Test(
        "recovery links: used once (of concurrent uses one wins), not after expiry, a hash of the wrong length or an unknown user refused, expired ones purged",
        arguments: Backend.available)
    func recoveryLinks(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let link = Make.bytes(32)
            let expired = Make.bytes(32)
            try await store.insertRecoveryLink(tokenHash: link, ofUser: alice.id, expiresAt: Make.now + 600)
            try await store.insertRecoveryLink(tokenHash: expired, ofUser: alice.id, expiresAt: Make.now)

            #expect(try await store.consumeRecoveryLink(tokenHash: Make.bytes(32), now: Make.now) == nil, "unknown")
            #expect(try await store.consumeRecoveryLink(tokenHash: expired, now: Make.now) == nil, "expired")
            let users = try await withThrowingTaskGroup(of: UUID?.self) { group in
                for _ in 0..<4 { group.addTask { try await store.consumeRecoveryLink(tokenHash: link, now: Make.now) } }
                return try await group.reduce(into: [UUID]()) { users, user in if let user { users.append(user) } }
            }
            #expect(users == [alice.id], "one use of four has the user")

            do throws(StoreError) {
                try await store.insertRecoveryLink(tokenHash: Make.bytes(31), ofUser: alice.id, expiresAt: Make.now)
                Issue.record("a 31-byte hash was stored")
            } catch {
                #expect(error.code == .invalidRecord)
                #expect(error.message == "a recovery link token hash must be 32 bytes (SHA-256)", "\(error)")
            }
            await expectStoreError(.notFound) {
                try await store.insertRecoveryLink(tokenHash: Make.bytes(32), ofUser: UUID(), expiresAt: Make.now + 600)
            }
            #expect(try await store.purgeExpiredRecoveryLinks(now: Make.now) == 1, "the expired link")
            #expect(try await store.purgeExpiredRecoveryLinks(now: Make.now) == 0)
        }
    }

    // MARK: Users, cascading

    @Test(arguments: Backend.available)
    func deletingAUserCascades(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = try await store.createUser(named: "alice")
            let bob = try await store.createUser(named: "bob")
            let credential = Make.credential(of: alice.id)
            let session = Make.session(of: alice.id)
            let bobsCredential = Make.credential(of: bob.id)
            try await store.addCredential(credential)
            try await store.addCredential(bobsCredential)
            try await store.createSession(session)

            try await store.deleteUser(id: alice.id)

            #expect(try await store.user(id: alice.id) == nil)
            #expect(try await store.credential(id: credential.id) == nil)
            #expect(try await store.credentialCount(ofUser: alice.id) == 0)
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)
            #expect(try await store.credential(id: bobsCredential.id) == bobsCredential)
            await expectStoreError(.notFound) { try await store.deleteUser(id: alice.id) }
            try await store.createUser(Make.user(name: "alice"))  // the name is free again
        }
    }

    // MARK: Registration

    @Test(arguments: Backend.available)
    func registrationCommitCreatesUserCredentialAndSession(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user(name: "newcomer")
            let credential = Make.credential(of: user.id)
            let session = Make.session(of: user.id)
            try await store.commitRegistration(credential, creating: user, session: session)

            #expect(try await store.user(named: "newcomer") == user)
            #expect(try await store.credential(id: credential.id) == credential)
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == session)

            let another = Make.credential(of: user.id, createdAt: Make.now.addingTimeInterval(1))
            try await store.commitRegistration(another, creating: nil, session: nil)
            #expect(try await store.credentials(ofUser: user.id) == [credential, another])
        }
    }

    @Test(arguments: Backend.available)
    func failedRegistrationLeavesNoHalfMadeUser(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let existing = Make.user(name: "existing")
            let taken = Make.credential(of: existing.id)
            try await store.commitRegistration(taken, creating: existing, session: nil)

            let newcomer = Make.user(name: "newcomer")
            let session = Make.session(of: newcomer.id)
            await expectStoreError(.conflict) {
                try await store.commitRegistration(
                    Make.credential(of: newcomer.id, id: taken.id), creating: newcomer, session: session)
            }
            #expect(try await store.user(named: "newcomer") == nil)
            #expect(try await store.user(id: newcomer.id) == nil)
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)

            // A session insert that fails undoes the user and the credential too.
            let credential = Make.credential(of: newcomer.id)
            let clash = Make.session(of: newcomer.id)
            try await store.createSession(Make.session(of: existing.id, tokenHash: clash.tokenHash))
            await expectStoreError(.conflict) {
                try await store.commitRegistration(credential, creating: newcomer, session: clash)
            }
            #expect(try await store.user(id: newcomer.id) == nil)
            #expect(try await store.credential(id: credential.id) == nil)

            await expectStoreError(.invalidRecord) {
                try await store.commitRegistration(Make.credential(of: existing.id), creating: newcomer, session: nil)
            }
            await expectStoreError(.notFound) {
                try await store.commitRegistration(Make.credential(of: UUID()), creating: nil, session: nil)
            }
        }
    }

    // MARK: Authentication

    @Test(arguments: Backend.available)
    func signInUpdatesCredentialAndIssuesSession(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id, signCount: 5)
            try await store.commitRegistration(credential, creating: user, session: nil)
            let usedAt = Make.now.addingTimeInterval(30)
            let session = Make.session(of: user.id)

            _ = try await recordSignIn(
                store, credentialID: credential.id, newSignCount: 6, backedUp: true, usedAt: usedAt, session: session,
                previousSignCount: 5
            )

            let updated = try #require(try await store.credential(id: credential.id))
            #expect(updated.signCount == 6)
            #expect(updated.backedUp)
            #expect(updated.lastUsedAt == usedAt)
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == session)

            _ = try await recordSignIn(
                store, credentialID: credential.id, newSignCount: 7, backedUp: false, usedAt: usedAt, session: nil,
                previousSignCount: 6
            )
            #expect(try await store.credential(id: credential.id)?.signCount == 7)
        }
    }

    @Test(arguments: Backend.available)
    func signInRollsBackWhenTheSessionFails(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id, signCount: 5)
            let existing = Make.session(of: user.id)
            try await store.commitRegistration(credential, creating: user, session: existing)

            await expectStoreError(.conflict) {
                _ = try await recordSignIn(
                    store, credentialID: credential.id, newSignCount: 6, backedUp: true, usedAt: Make.now,
                    session: Make.session(of: user.id, tokenHash: existing.tokenHash), previousSignCount: 5
                )
            }
            #expect(
                try await store.credential(id: credential.id) == credential,
                "sign count, backup state and last use unchanged")

            let stranger = try await store.createUser(named: "stranger")
            let strangersSession = Make.session(of: stranger.id)
            await expectStoreError(.invalidRecord) {
                _ = try await recordSignIn(
                    store, credentialID: credential.id, newSignCount: 6, backedUp: true, usedAt: Make.now,
                    session: strangersSession,
                    previousSignCount: 5
                )
            }
            #expect(try await store.credential(id: credential.id) == credential)
            #expect(try await store.session(tokenHash: strangersSession.tokenHash, now: Make.now) == nil)
        }
    }

    @Test(arguments: Backend.available)
    func signInOfUnknownCredentialWritesNothing(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            try await store.createUser(user)
            let session = Make.session(of: user.id)
            await expectStoreError(.notFound) {
                _ = try await recordSignIn(
                    store, credentialID: Make.bytes(32), newSignCount: 1, backedUp: false, usedAt: Make.now,
                    session: session, previousSignCount: 0
                )
            }
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)
        }
    }

    @Test(
        "a sign-in is a compare-and-set on the sign count: a stale count is a conflict that writes nothing",
        arguments: Backend.available)
    func signCountCompareAndSet(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id, signCount: 5)
            try await store.commitRegistration(credential, creating: user, session: nil)

            _ = try await recordSignIn(
                store, credentialID: credential.id, newSignCount: 7, backedUp: false, usedAt: Make.now, session: nil,
                previousSignCount: 5
            )
            let late = Make.session(of: user.id)
            await expectStoreError(.conflict) {
                _ = try await recordSignIn(
                    store, credentialID: credential.id, newSignCount: 6, backedUp: true, usedAt: Make.now,
                    session: late, previousSignCount: 5
                )
            }
            #expect(try await store.credential(id: credential.id)?.signCount == 7, "the later, lower count did not win")
            #expect(try await store.session(tokenHash: late.tokenHash, now: Make.now) == nil)
            await expectStoreError(.notFound) {
                _ = try await recordSignIn(
                    store, credentialID: Make.bytes(32), newSignCount: 1, backedUp: false, usedAt: Make.now,
                    session: nil, previousSignCount: 0
                )
            }
        }
    }

    @Test("of concurrent sign-ins verified against one sign count, exactly one commits", arguments: Backend.available)
    func concurrentSignInsWithOneCount(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id, signCount: 10)
            try await store.commitRegistration(credential, creating: user, session: nil)
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for count in UInt32(11)...18 {
                    group.addTask {
                        do {
                            _ = try await recordSignIn(
                                store, credentialID: credential.id, newSignCount: count, backedUp: false,
                                usedAt: Make.now,
                                session: Make.session(of: user.id), previousSignCount: 10
                            )
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
        }
    }

    @Test(
        "deleting with keepingAnotherWayIn refuses the last credential, also when two deletions race",
        arguments: Backend.available)
    func lastCredentialIsKept(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let first = Make.credential(of: user.id)
            let second = Make.credential(of: user.id)
            try await store.commitRegistration(first, creating: user, session: nil)
            try await store.addCredential(second)

            let deletions = await withTaskGroup(of: StoreError.Code?.self) { group in
                for credential in [first, second] {
                    group.addTask {
                        do {
                            try await store.deleteCredential(
                                id: credential.id, ofUser: user.id, keepingAnotherWayIn: true)
                            return nil
                        } catch {
                            return (error as? StoreError)?.code
                        }
                    }
                }
                return await group.reduce(into: [StoreError.Code?]()) { $0.append($1) }
            }
            #expect(deletions.filter { $0 == nil }.count == 1)
            #expect(deletions.contains(.conflict))
            #expect(try await store.credentialCount(ofUser: user.id) == 1)

            let last = try #require(try await store.credentials(ofUser: user.id).first)
            await expectStoreError(.conflict) {
                try await store.deleteCredential(id: last.id, ofUser: user.id, keepingAnotherWayIn: true)
            }
            await expectStoreError(.notFound) {
                try await store.deleteCredential(id: Make.bytes(32), ofUser: user.id, keepingAnotherWayIn: true)
            }
            try await store.deleteCredential(id: last.id, ofUser: user.id, keepingAnotherWayIn: false)
            #expect(try await store.credentialCount(ofUser: user.id) == 0)
            // An unknown credential is notFound on every backend, whatever the user has left.
            await expectStoreError(.notFound) {
                try await store.deleteCredential(id: Make.bytes(32), ofUser: user.id, keepingAnotherWayIn: true)
            }
        }
    }

    @Test(
        "commitAuthentication spends the ticket with the outcome; of concurrent commits exactly one wins",
        arguments: Backend.available)
    func commitAuthenticationConsumesOnce(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id)
            try await store.commitRegistration(credential, creating: user, session: nil)
            let ticket = Make.ticket()

            let sessions = (0..<6).map { _ in Make.session(of: user.id) }
            let wins = await withTaskGroup(of: Bool.self) { group in
                for session in sessions {
                    group.addTask {
                        (try? await store.commitAuthentication(
                            spending: ticket, credentialID: credential.id, newSignCount: 0, backupEligible: true,
                            backedUp: false,
                            usedAt: Make.now, session: session, previousSignCount: 0
                        )) ?? false
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(wins == 1)
            #expect(try await store.spendTicket(ticket) == false, "the winner spent the ticket")
            var stored = 0
            for session in sessions where try await store.session(tokenHash: session.tokenHash, now: Make.now) != nil {
                stored += 1
            }
            #expect(stored == 1, "only the winner's session exists")
        }
    }

    @Test(
        "a failed commitAuthentication writes nothing and leaves the ticket unspent; a spent one is false",
        arguments: Backend.available)
    func failedCommitLeavesTheTicket(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id, signCount: 3)
            try await store.commitRegistration(credential, creating: user, session: nil)
            let ticket = Make.ticket()
            let session = Make.session(of: user.id)
            await expectStoreError(.conflict) {
                _ = try await store.commitAuthentication(
                    spending: ticket, credentialID: credential.id, newSignCount: 4, backupEligible: true,
                    backedUp: true,
                    usedAt: Make.now, session: session, previousSignCount: 2
                )
            }
            await expectStoreError(.notFound) {
                _ = try await store.commitAuthentication(
                    spending: ticket, credentialID: Make.bytes(32), newSignCount: 4, backupEligible: true,
                    backedUp: true,
                    usedAt: Make.now, session: nil, previousSignCount: 0
                )
            }
            #expect(try await store.credential(id: credential.id) == credential)
            #expect(try await store.session(tokenHash: session.tokenHash, now: Make.now) == nil)
            #expect(try await store.spendTicket(ticket), "the failed commits left the ticket unspent")
            #expect(
                try await store.commitAuthentication(
                    spending: ticket, credentialID: credential.id, newSignCount: 4, backupEligible: true,
                    backedUp: true, usedAt: Make.now,
                    session: nil, previousSignCount: 3
                ) == false)
            #expect(
                try await store.credential(id: credential.id)?.signCount == 3, "nothing written with a spent ticket")
        }
    }

    @Test(
        "commitRegistration(spending:) spends the ticket with the outcome; of concurrent commits exactly one wins",
        arguments: Backend.available)
    func commitRegistrationConsumesOnce(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ticket = Make.ticket()
            let users = (0..<6).map { index in Make.user(name: "racer\(index)") }
            let wins = await withTaskGroup(of: Bool.self) { group in
                for user in users {
                    group.addTask {
                        (try? await store.commitRegistration(
                            spending: ticket, Make.credential(of: user.id), creating: user,
                            session: Make.session(of: user.id)
                        )) ?? false
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(wins == 1)
            #expect(try await store.spendTicket(ticket) == false, "the winner spent the ticket")
            var created = 0
            for user in users where try await store.user(id: user.id) != nil { created += 1 }
            #expect(created == 1, "only the winner's account exists")
        }
    }

    @Test(
        "a failed commitRegistration(spending:) writes nothing and leaves the ticket unspent; a spent one is false",
        arguments: Backend.available)
    func failedRegistrationCommitLeavesTheTicket(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let existing = Make.user(name: "taken")
            let taken = Make.credential(of: existing.id)
            try await store.commitRegistration(taken, creating: existing, session: nil)
            let ticket = Make.ticket()
            let newcomer = Make.user(name: "newcomer")
            await expectStoreError(.conflict) {
                _ = try await store.commitRegistration(
                    spending: ticket, Make.credential(of: newcomer.id, id: taken.id), creating: newcomer, session: nil
                )
            }
            #expect(try await store.user(id: newcomer.id) == nil)
            #expect(try await store.spendTicket(ticket), "the failed commit left the ticket unspent")
            #expect(
                try await store.commitRegistration(
                    spending: ticket, Make.credential(of: newcomer.id), creating: newcomer, session: nil
                ) == false)
            #expect(try await store.user(id: newcomer.id) == nil, "nothing written with a spent ticket")
        }
    }

    @Test(
        "account(ofCredential:) and account(named:) read an account with all its credentials, oldest first; nil when unknown",
        arguments: Backend.available)
    func accountWithCredentials(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user(name: "Holder")
            let first = Make.credential(of: user.id, createdAt: Date(timeIntervalSince1970: 1_000))
            let second = Make.credential(of: user.id, createdAt: Date(timeIntervalSince1970: 2_000))
            let other = Make.user()
            let othersCredential = Make.credential(of: other.id)
            try await store.commitRegistration(second, creating: user, session: nil)
            try await store.commitRegistration(first, creating: nil, session: nil)
            try await store.commitRegistration(othersCredential, creating: other, session: nil)

            let expected = StoredAccount(user: user, credentials: [first, second])
            #expect(try await store.account(ofCredential: second.id) == expected)
            #expect(try await store.account(ofCredential: first.id)?.credential(id: first.id) == first)
            #expect(try await store.account(named: "holder") == expected, "names compare case-insensitively")
            #expect(try await store.account(ofCredential: Make.bytes(32)) == nil)
            #expect(try await store.account(named: "nobody") == nil)

            let bare = Make.user(name: "bare")
            try await store.createUser(bare)
            #expect(
                try await store.account(named: "bare") == StoredAccount(user: bare, credentials: []),
                "an account without credentials")
        }
    }

    // MARK: Migrations

    @Test(arguments: Backend.available)
    func migrationsAreIdempotent(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let user = Make.user(name: "persistent")
            let credential = Make.credential(of: user.id)
            try await database.withStore { store in
                try await store.commitRegistration(credential, creating: user, session: nil)
                try await store.migrate()
                try await store.migrate()
            }
            // Opening the same database again migrates again, finds nothing to do and keeps the data.
            try await database.withStore { store throws in
                #expect(try await store.user(named: "persistent") == user)
                #expect(try await store.credential(id: credential.id) == credential)
            }
        }
    }

    @Test(arguments: Backend.available)
    func concurrentFirstOpensMigrateOnce(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            // Several servers starting at once on a new database: each migrates; the schema is made once.
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await database.withStore { store in try await store.credentialCount(ofUser: UUID()) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == [0, 0, 0, 0])
        }
    }

    /// Commits a sign-in with `credentialID` spending a fresh ticket, as the server does.
    private func recordSignIn(
        _ store: any LatchkeyStore, credentialID: Data, newSignCount: UInt32, backedUp: Bool, usedAt: Date,
        session: StoredSession?, previousSignCount: UInt32
    ) async throws(StoreError) -> Bool {
        try await store.commitAuthentication(
            spending: Make.ticket(), credentialID: credentialID, newSignCount: newSignCount, backupEligible: true,
            backedUp: backedUp,
            usedAt: usedAt, session: session, previousSignCount: previousSignCount
        )
    }
}
