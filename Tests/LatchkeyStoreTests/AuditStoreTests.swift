import Foundation
import Testing

@testable import LatchkeyStore

/// The audit log in the store: events written with the change they record, in its transaction (so never without it,
/// and never for a change that was not made), read by user, time and page, purged by age; on both databases.
@Suite("Audit log in the store")
struct AuditStoreTests {
    static func event(_ type: String, user: UUID?, at offset: TimeInterval = 0) -> AuditEvent {
        AuditEvent(
            type: type, occurredAt: Make.now.addingTimeInterval(offset), userID: user, ip: "192.0.2.1",
            userAgent: "Test/1.0", authenticator: "iCloud Keychain", detail: "passkey")
    }

    /// The types of `user`'s events, oldest first.
    static func types(of user: UUID, in store: any LatchkeyStore) async throws -> [String] {
        try await store.auditEvents(AuditQuery(userID: user)).reversed().map(\.event.type)
    }

    @Test(
        "events are kept whole and read newest first, by user, by time and page by page", arguments: Backend.available)
    func readBack(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let alice = UUID()
            let bob = UUID()
            try await store.recordAuditEvents((0..<5).map { Self.event("e\($0)", user: alice, at: TimeInterval($0)) })
            try await store.recordAuditEvents([Self.event("b", user: bob), Self.event("anonymous", user: nil)])

            let all = try await store.auditEvents(AuditQuery(userID: alice))
            #expect(all.map(\.event.type) == ["e4", "e3", "e2", "e1", "e0"])
            #expect(all[4].event == Self.event("e0", user: alice))
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.sequence > $1.sequence })

            let page = try await store.auditEvents(AuditQuery(userID: alice, limit: 2))
            #expect(page.map(\.event.type) == ["e4", "e3"])
            let next = try await store.auditEvents(AuditQuery(userID: alice, before: page.last?.sequence, limit: 2))
            #expect(next.map(\.event.type) == ["e2", "e1"])

            let window = try await store.auditEvents(
                AuditQuery(since: Make.now.addingTimeInterval(1), until: Make.now.addingTimeInterval(3)))
            #expect(window.map(\.event.type) == ["e2", "e1"])
            #expect(try await store.auditEvents(AuditQuery()).count == 7)

            #expect(try await store.purgeAuditEvents(occurredBefore: Make.now.addingTimeInterval(2)) == 4)
            #expect(try await store.auditEvents(AuditQuery(userID: alice)).map(\.event.type) == ["e4", "e3", "e2"])

            await expectStoreError(.invalidRecord) { try await store.auditEvents(AuditQuery(limit: 0)) }
            await expectStoreError(.invalidRecord) {
                try await store.recordAuditEvents([Self.event(String(repeating: "x", count: 65), user: nil)])
            }
        }
    }

    @Test(
        "an event goes with its change: a change that fails or changes nothing records nothing",
        arguments: Backend.available)
    func withTheChange(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id)
            try await store.commitRegistration(credential, creating: user, session: nil)

            // Made: recorded.
            try await AuditTrail.recording([Self.event("renamed", user: user.id)], in: store) {
                () async throws(StoreError) in
                try await store.renameCredential(id: credential.id, ofUser: user.id, to: "Phone")
            }
            // Failed (the last way in): neither the change nor the event.
            await expectStoreError(.conflict) {
                try await AuditTrail.recording([Self.event("removed", user: user.id)], in: store) {
                    () async throws(StoreError) in
                    try await store.deleteCredential(id: credential.id, ofUser: user.id, keepingAnotherWayIn: true)
                }
            }
            #expect(try await store.credential(id: credential.id) != nil)
            // Found nothing (a passkey or an account gone meanwhile): no event either.
            await expectStoreError(.notFound) {
                try await AuditTrail.recording([Self.event("renamed.gone", user: user.id)], in: store) {
                    () async throws(StoreError) in
                    try await store.renameCredential(id: Make.bytes(32), ofUser: user.id, to: "Gone")
                }
            }
            await expectStoreError(.notFound) {
                try await AuditTrail.recording([Self.event("deleted.gone", user: user.id)], in: store) {
                    () async throws(StoreError) in
                    try await store.deleteUser(id: UUID())
                }
            }
            // Not made (a wrong recovery code): the transaction commits, the event does not go with it.
            try await store.replaceRecoveryCodes(ofUser: user.id, hashes: [Make.bytes(32)], now: Make.now)
            let wrong = try await AuditTrail.recording([Self.event("recovered", user: user.id)], in: store) {
                () async throws(StoreError) in
                try await store.consumeRecoveryCode(ofUser: user.id, hash: Make.bytes(32))
            }
            #expect(!wrong)
            // A sign-in: recorded with the commit, not with a replay of its ticket.
            let ticket = Make.ticket()
            for attempt in 0..<2 {
                _ = try await AuditTrail.recording([Self.event("signin.\(attempt)", user: user.id)], in: store) {
                    () async throws(StoreError) in
                    try await store.commitAuthentication(
                        spending: ticket, credentialID: credential.id, newSignCount: 1, backupEligible: true,
                        backedUp: false, usedAt: Make.now, session: Make.session(of: user.id), previousSignCount: 0)
                }
            }
            // Two events with one sign-in (the PostgreSQL store writes one in the commit's statement, more in a
            // transaction).
            let second = Make.ticket()
            _ = try await AuditTrail.recording(
                [Self.event("signin.a", user: user.id), Self.event("signin.b", user: user.id)], in: store
            ) { () async throws(StoreError) in
                try await store.commitAuthentication(
                    spending: second, credentialID: credential.id, newSignCount: 2, backupEligible: true,
                    backedUp: false, usedAt: Make.now, session: Make.session(of: user.id), previousSignCount: 1)
            }
            // Nothing to change (no sessions to end) is still the user's doing: recorded on its own.
            try await AuditTrail.recording([Self.event("sessions.ended", user: user.id)], in: store) {
                () async throws(StoreError) in
                try await store.deleteSessions(ofUser: user.id)
            }
            #expect(
                try await Self.types(of: user.id, in: store) == [
                    "renamed", "signin.0", "signin.a", "signin.b", "sessions.ended",
                ])
        }
    }

    @Test("when the event cannot be written, the change is undone with it", arguments: Backend.available)
    func undoneTogether(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            try await database.withStore { store in
                let user = Make.user()
                let credential = Make.credential(of: user.id)
                try await store.commitRegistration(credential, creating: user, session: nil)
                try await database.execute { prefix in
                    prefix.isEmpty
                        ? "CREATE TRIGGER refuse BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'refused'); END"
                        : "ALTER TABLE \(prefix)audit_events ADD CONSTRAINT refuse CHECK (type <> 'refused')"
                }
                let refused = AuditEvent(type: "refused", occurredAt: Make.now, userID: user.id)
                await #expect(throws: StoreError.self) {
                    try await AuditTrail.recording([refused], in: store) { () async throws(StoreError) in
                        try await store.renameCredential(id: credential.id, ofUser: user.id, to: "Lost")
                    }
                }
                await #expect(throws: StoreError.self) {
                    try await AuditTrail.recording([refused], in: store) { () async throws(StoreError) in
                        try await store.commitAuthentication(
                            spending: Make.ticket(), credentialID: credential.id, newSignCount: 1, backupEligible: true,
                            backedUp: false, usedAt: Make.now, session: Make.session(of: user.id),
                            previousSignCount: 0)
                    }
                }
                let stored = try #require(try await store.credential(id: credential.id))
                #expect(stored.label == nil && stored.signCount == 0, "both changes were undone")
                #expect(try await store.sessions(ofUser: user.id, now: Make.now).isEmpty)
            }
        }
    }
}
