import Foundation
import Testing

@testable import LatchkeyStore

/// The webhook outbox in the store: a delivery per event and endpoint, queued in the event's transaction (and only
/// for a change made), leased so that one instance sends it, finished as delivered, retried or failed, deleted with
/// its event; on both databases.
@Suite("Webhook deliveries in the store")
struct WebhookStoreTests {
    static func event(_ type: String, user: UUID, notify: [String], at offset: TimeInterval = 0) -> AuditEvent {
        var event = AuditEvent(
            type: type, occurredAt: Make.now.addingTimeInterval(offset), userID: user, actor: "admin:ops",
            ip: "203.0.113.7", userAgent: "Safari on iPhone", authenticator: "iCloud Keychain", detail: "of \(type)")
        event.notify = notify
        return event
    }

    @Test(
        "queued with the change, leased once, finished three ways, counted, deleted with the event",
        arguments: Backend.available)
    func lifecycle(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = Make.user()
            let credential = Make.credential(of: user.id)
            try await store.commitRegistration(credential, creating: user, session: nil)
            try await AuditTrail.recording(
                [Self.event("passkey.renamed", user: user.id, notify: ["a", "b"])], in: store
            ) {
                () async throws(StoreError) in
                try await store.renameCredential(id: credential.id, ofUser: user.id, to: "Phone")
            }
            // A change not made queues nothing; an event that notifies no one neither.
            _ = try await AuditTrail.recording(
                [Self.event("recovery.started", user: user.id, notify: ["a"])], in: store
            ) {
                () async throws(StoreError) in
                try await store.consumeRecoveryCode(ofUser: user.id, hash: Make.bytes(32))
            }
            try await store.recordAuditEvents([Self.event("quiet", user: user.id, notify: [])])
            // The sign-in's commit carries its event and deliveries too.
            _ = try await AuditTrail.recording(
                [Self.event("signin.succeeded", user: user.id, notify: ["a"], at: 1)], in: store
            ) {
                () async throws(StoreError) in
                try await store.commitAuthentication(
                    spending: Make.ticket(), credentialID: credential.id, newSignCount: 1, backupEligible: true,
                    backedUp: false, usedAt: Make.now, session: Make.session(of: user.id), previousSignCount: 0)
            }

            let now = Make.now.addingTimeInterval(5)
            let claimed = try await store.claimWebhookDeliveries(
                now: now, leaseUntil: now.addingTimeInterval(60), limit: 10)
            #expect(claimed.map(\.endpoint).sorted() == ["a", "a", "b"])
            #expect(Set(claimed.map(\.event.event.type)) == ["passkey.renamed", "signin.succeeded"])
            #expect(claimed.allSatisfy { $0.attempts == 1 && $0.event.event.userID == user.id })
            let logged = try await store.auditEvents(AuditQuery(userID: user.id))
            #expect(
                claimed.allSatisfy { delivery in logged.contains(delivery.event) },
                "each delivery carries its event whole (sequence and every text), as the audit log reads it")
            #expect(
                try await store.claimWebhookDeliveries(now: now, leaseUntil: now.addingTimeInterval(60), limit: 10)
                    .isEmpty, "leased")

            let (first, second, third) = (claimed[0], claimed[1], claimed[2])
            try await store.finishWebhookDelivery(id: first.id, .delivered, at: now)
            try await store.finishWebhookDelivery(id: second.id, .failed(error: "HTTP 410"), at: now)
            try await store.finishWebhookDelivery(
                id: third.id, .retry(next: now.addingTimeInterval(30), error: "HTTP 503"), at: now)
            #expect(
                try await store.claimWebhookDeliveries(now: now.addingTimeInterval(29), leaseUntil: now, limit: 10)
                    .isEmpty)
            let again = try await store.claimWebhookDeliveries(
                now: now.addingTimeInterval(31), leaseUntil: now.addingTimeInterval(90), limit: 10)
            #expect(again.map(\.id) == [third.id] && again.first?.attempts == 2)

            let status = try await store.webhookStatus()
            #expect(status.map(\.endpoint) == ["a", "b"])
            #expect(status.reduce(0) { $0 + $1.pending } == 1 && status.reduce(0) { $0 + $1.delivered } == 1)
            #expect(status.reduce(0) { $0 + $1.failed } == 1)
            #expect(status.contains { $0.lastError == "HTTP 503" || $0.lastError == "HTTP 410" })

            // The event's retention ends its deliveries.
            #expect(try await store.purgeAuditEvents(occurredBefore: Make.now.addingTimeInterval(10)) == 3)
            #expect(try await store.webhookStatus().isEmpty)
        }
    }

    @Test("instances claiming at once take different deliveries", arguments: Backend.available)
    func parallelClaims(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let user = UUID()
            try await store.recordAuditEvents(
                (0..<40).map { Self.event("e\($0)", user: user, notify: ["hook"], at: TimeInterval($0) / 100) })
            let now = Make.now.addingTimeInterval(10)
            let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await store.claimWebhookDeliveries(
                            now: now, leaseUntil: now.addingTimeInterval(60), limit: 15
                        )
                        .map(\.id)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(ids.count == 40 && Set(ids).count == 40)
        }
    }
}
