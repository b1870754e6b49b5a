import Foundation
import LatchkeyStore
import Testing
import WebAuthn

@testable import LatchkeyServer

/// The sealed ceremony tickets on their own: what a ticket gives back, and what it refuses.
@Suite("Ceremony tickets")
struct CeremonyTicketsTests {
    private static let pending = PendingAuthentication(
        challenge: Array(repeating: 7, count: 32), allowedCredentialIDs: [[1, 2, 3], Array(repeating: 9, count: 64)],
        userVerification: .required, userHandle: Array(repeating: 4, count: 32), mediation: .conditional
    )

    @Test("a ticket opens to its state, its expiry and a spent-ticket ID; each seal is a new ticket")
    func roundTrip() async throws {
        try await withServer(.sqlite) { server in
            let tickets = CeremonyTickets(store: server.store, lifetime: .seconds(300))
            let now = Date(timeIntervalSince1970: 1_800_000_000.25)
            let ticket = try await tickets.seal(.authentication, state: Self.pending, now: now)
            let again = try await tickets.seal(.authentication, state: Self.pending, now: now)
            #expect(ticket != again)
            #expect(ticket.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "URL- and cookie-safe")

            let (spent, state) = try await tickets.open(
                ticket, kind: .authentication, as: PendingAuthentication.self, now: now)
            #expect(state == Self.pending)
            #expect(spent.expiresAt == Date(timeIntervalSince1970: 1_800_000_300.25))
            #expect(
                spent.id == String(1_800_000_300_250, radix: 16).leftPadded(to: 12) + spent.id.suffix(16),
                "the expiry in milliseconds as 12 hex digits, then the 12-byte nonce, base64url")
            let (otherSpent, _) = try await tickets.open(
                again, kind: .authentication, as: PendingAuthentication.self, now: now)
            #expect(otherSpent.id != spent.id)

            await #expect(throws: CeremonyError.expired(.authentication)) {
                _ = try await tickets.open(
                    ticket, kind: .authentication, as: PendingAuthentication.self, now: spent.expiresAt)
            }
            await #expect(throws: CeremonyError.notFound(.authentication), "hours later it is no longer opened at all")
            {
                _ = try await tickets.open(
                    ticket, kind: .authentication, as: PendingAuthentication.self, now: now.addingTimeInterval(4 * 3600)
                )
            }
            await #expect(throws: CeremonyError.notFound(.authentication), "nor hours before it was issued") {
                _ = try await tickets.open(
                    ticket, kind: .authentication, as: PendingAuthentication.self,
                    now: now.addingTimeInterval(-3 * 3600))
            }
            let nextHour = now.addingTimeInterval(3600)
            let later = try await tickets.seal(.authentication, state: Self.pending, now: nextHour)
            #expect(
                try await tickets.open(later, kind: .authentication, as: PendingAuthentication.self, now: nextHour).1
                    == Self.pending,
                "each hour has its key")
        }
    }

    @Test("spent-ticket IDs sort as their tickets expire, whatever their nonces")
    func spentIDsSortByExpiry() async throws {
        try await withServer(.sqlite) { server in
            let tickets = CeremonyTickets(store: server.store, lifetime: .seconds(300))
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            var ids: [String] = []
            // A millisecond apart, a second apart, and across a change in the number of significant hex digits.
            for offset in [0, 0.001, 1, 2, 1_000_000, 100_000_000] as [TimeInterval] {
                let now = start.addingTimeInterval(offset)
                let ticket = try await tickets.seal(.authentication, state: Self.pending, now: now)
                ids.append(
                    try await tickets.open(ticket, kind: .authentication, as: PendingAuthentication.self, now: now).0.id
                )
            }
            #expect(ids == ids.sorted())
            #expect(ids.allSatisfy { $0.count == 28 })
            #expect(
                CeremonyTickets.spentID(version: 2, expiry: 0xF, nonce: Array(repeating: 0, count: 12))
                    == "00000000000f" + "AAAAAAAAAAAAAAAA")
        }
    }

    @Test("a version 1 ticket still opens, with its own spent-ticket ID; a changed version byte is refused")
    func versionOneTicketsStillOpen() async throws {
        try await withServer(.sqlite) { server in
            let tickets = CeremonyTickets(store: server.store, lifetime: .seconds(300))
            let now = Date()
            let old = try await tickets.seal(.authentication, state: Self.pending, now: now, version: 1)
            let (oldSpent, oldState) = try await tickets.open(
                old, kind: .authentication, as: PendingAuthentication.self, now: now)
            #expect(oldState == Self.pending)
            let oldBytes = try #require(Base64URL.decode(old))
            #expect(oldSpent.id == Base64URL.encode(Array(oldBytes[5..<17])), "version 1: the nonce alone, as before")

            let new = try await tickets.seal(.authentication, state: Self.pending, now: now)
            var newBytes = try #require(Base64URL.decode(new))
            #expect(newBytes[0] == 2)
            // Passing either off as the other version (which would name it by another spent-ticket ID) fails.
            newBytes[0] = 1
            var oldAsNew = oldBytes
            oldAsNew[0] = 2
            for changed in [newBytes, oldAsNew] {
                await #expect(throws: CeremonyError.notFound(.authentication)) {
                    _ = try await tickets.open(
                        Base64URL.encode(changed), kind: .authentication, as: PendingAuthentication.self, now: now)
                }
            }
        }
    }

    @Test("another server's ticket (another key) is not found; the key is shared through the store")
    func theKeyComesFromTheStore() async throws {
        try await withServer(.sqlite) { server in
            let ticket = try await CeremonyTickets(store: server.store, lifetime: .seconds(300))
                .seal(.authentication, state: Self.pending, now: Date())
            // A second instance on the same database opens it.
            let sibling = CeremonyTickets(store: server.store, lifetime: .seconds(300))
            #expect(
                try await sibling.open(ticket, kind: .authentication, as: PendingAuthentication.self, now: Date()).1
                    == Self.pending)
            try await withServer(.sqlite) { other in
                let stranger = CeremonyTickets(store: other.store, lifetime: .seconds(300))
                await #expect(throws: CeremonyError.notFound(.authentication)) {
                    _ = try await stranger.open(
                        ticket, kind: .authentication, as: PendingAuthentication.self, now: Date())
                }
            }
        }
    }

    @Test("every single-byte change to a ticket is refused as not found")
    func changedTicketsAreRefused() async throws {
        try await withServer(.sqlite) { server in
            let tickets = CeremonyTickets(store: server.store, lifetime: .seconds(300))
            let ticket = try await tickets.seal(.authentication, state: Self.pending, now: Date())
            let bytes = try #require(Base64URL.decode(ticket))
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x01
                await #expect(throws: CeremonyError.notFound(.authentication), "byte \(index)") {
                    _ = try await tickets.open(
                        Base64URL.encode(changed), kind: .authentication, as: PendingAuthentication.self, now: Date())
                }
            }
            await #expect(throws: CeremonyError.notFound(.registration), "another kind's") {
                _ = try await tickets.open(ticket, kind: .registration, as: PendingAuthentication.self, now: Date())
            }
            await #expect(throws: CeremonyError.notFound(.authentication), "too long") {
                _ = try await tickets.open(
                    String(repeating: "A", count: CeremonyTickets.maximumLength + 4), kind: .authentication,
                    as: PendingAuthentication.self, now: Date())
            }
        }
    }

    @Test("a spent ticket outlives its expiry by the purge's grace, for instances whose clocks run behind")
    func spentTicketsAreKeptPastTheirExpiry() async throws {
        try await withServer(.sqlite) { server in
            let now = Date()
            let purge = ExpiryPurgeService(store: server.store, interval: .seconds(60), logger: quietLogger)
            let recent = SpentTicket(
                id: "recent", expiresAt: now.addingTimeInterval(-ExpiryPurgeService.spentTicketGrace + 60))
            let old = SpentTicket(
                id: "old", expiresAt: now.addingTimeInterval(-ExpiryPurgeService.spentTicketGrace - 60))
            #expect(try await server.store.spendTicket(recent))
            #expect(try await server.store.spendTicket(old))
            try await purge.purge(now: now)
            #expect(try await server.store.spendTicket(recent) == false, "expired, but within the grace: still spent")
            #expect(try await server.store.spendTicket(old), "past the grace: purged")
        }
    }

    /// A store that cannot be reached.
    struct UnreachableStore: ServerStateStore {
        func serverSecret(named name: String, candidate: Data) async throws(StoreError) -> Data {
            throw StoreError(.unavailable, "the database cannot be reached")
        }
        func countRequest(key: String, window: TimeInterval, now: Date) async throws(StoreError) -> Int {
            throw StoreError(.unavailable, "the database cannot be reached")
        }
        func purgeRequestCounts(before cutoff: Date) async throws(StoreError) -> Int {
            throw StoreError(.unavailable, "the database cannot be reached")
        }
    }

    @Test(
        "when the store holding the key cannot be reached, opening a ticket fails as the store does, not as a bad ticket"
    )
    func anUnreachableStoreIsNotABadTicket() async throws {
        try await withServer(.sqlite) { server in
            let ticket = try await CeremonyTickets(store: server.store, lifetime: .seconds(300))
                .seal(.authentication, state: Self.pending, now: Date())
            let cut = CeremonyTickets(store: UnreachableStore(), lifetime: .seconds(300))
            await #expect(throws: StoreError.self) {
                _ = try await cut.open(ticket, kind: .authentication, as: PendingAuthentication.self, now: Date())
            }
            await #expect(throws: StoreError.self) {
                _ = try await cut.seal(.authentication, state: Self.pending, now: Date())
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
