import Foundation
import LatchkeyStore
import Logging
import Synchronization
import Testing

@testable import LatchkeyServer

/// The outbox of notices over a real SQLite file, with a transport that fails as a test says: what is sent is deleted,
/// what fails for now is tried again later, what fails for good or for a day is given up, and what was queued before a
/// restart is sent after it.
@Suite("Mail outbox")
struct MailOutboxTests {
    /// Sends to anyone but `later@…` (a temporary failure) and `reject@…` (a permanent one); records what it sent.
    final class ScriptedTransport: MailTransport {
        let sent = Mutex<[String]>([])

        func send(_ message: MailMessage) async throws(MailDeliveryError) {
            if message.to.hasPrefix("later@") { throw .temporary("451 later") }
            if message.to.hasPrefix("reject@") { throw .permanent("550 no") }
            sent.withLock { $0.append(message.to) }
        }
    }

    @Test("queued before the outbox runs (a restart): sent; temporary failures back off; permanent or day-old ones go")
    func deliveryRetryAndGivingUp() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let store = try database.makeStore()
            let now = Date()
            let queued = [
                StoredMail(recipient: "ann@example.com", subject: "s", body: "b", createdAt: now),
                StoredMail(recipient: "later@example.com", subject: "s", body: "b", createdAt: now),
                StoredMail(recipient: "reject@example.com", subject: "s", body: "b", createdAt: now),
                StoredMail(
                    recipient: "later@old.example", subject: "s", body: "b",
                    createdAt: now.addingTimeInterval(-2 * 86_400)),
            ]
            for mail in queued { #expect(try await store.enqueueMail(mail, limit: 10)) }

            let transport = ScriptedTransport()
            var outbox = MailOutbox(
                store: store, transport: transport, from: "no-reply@example.com", logger: quietLogger)
            outbox.pollInterval = .milliseconds(20)
            let running = Task { try await outbox.run() }
            let deadline = ContinuousClock.now + .seconds(60)
            while transport.sent.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(200))
            running.cancel()
            _ = try? await running.value

            #expect(transport.sent.withLock { $0 } == ["ann@example.com"], "sent once")
            // Only the deferred message of today is left, due again in about 30 s.
            #expect(try await store.claimMail(now: Date().addingTimeInterval(20), lease: 60, limit: 10).isEmpty)
            let left = try await store.claimMail(now: Date().addingTimeInterval(45), lease: 60, limit: 10)
            #expect(left.map(\.recipient) == ["later@example.com"] && left.first?.attempts == 2)
        }
    }
}
