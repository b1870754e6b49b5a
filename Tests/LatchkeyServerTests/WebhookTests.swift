import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import LatchkeyStore
import Testing
import VirtualAuthenticator

@testable import LatchkeyServer

/// Webhooks over real HTTP: audit events sent to a receiver that checks their Standard Webhooks signatures with the
/// standardwebhooks package (PyPI), retried after a failure with the same id, given up on 410, shown in the admin API;
/// on both databases.
@Suite("Webhooks", WebhookReceiver.required)
struct WebhookTests {
    /// A `--webhooks-file` in `directory` with `endpoints` (name, url, events).
    static func file(_ endpoints: [(String, String, [String]?)], in directory: ScratchDirectory) throws -> String {
        let entries: [[String: Any]] = endpoints.map { name, url, events in
            var entry: [String: Any] = ["name": name, "url": url, "secret": WebhookReceiver.secret]
            if let events { entry["events"] = events }
            return entry
        }
        let path = directory.path("webhooks.json")
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "each endpoint gets the events it asked for, signed; a failure is tried again; 410 gives up",
        arguments: Backend.available)
    func deliveries(_ backend: Backend) async throws {
        let receiver = try await WebhookReceiver()
        let scratch = ScratchDirectory(prefix: "latchkey-webhooks-config")
        var settings = AdminAPITests.settings()
        settings.webhooksFile = try Self.file(
            [
                ("everything", receiver.url("/all"), nil),
                ("flaky", receiver.url("/flaky"), ["passkey.added"]),
                ("gone", receiver.url("/gone"), ["signin.succeeded"]),
            ], in: scratch)
        try await withServer(backend, settings: settings) { server in
            let phone = VirtualAuthenticator()
            _ = try await server.signedUpApp("alice", with: phone)
            #expect(try await NativeClient(http: server.app()).signIn("alice", with: phone).status == .ok)
            let user = try #require(try await server.store.user(named: "alice")).id.uuidString.lowercased()

            // The flaky endpoint's retry comes 5 s after its 503.
            let deliveries = try await receiver.wait { deliveries in
                deliveries.filter { $0.path == "/flaky" }.count == 2
                    && deliveries.filter { $0.path == "/all" }.count == 3
                    && deliveries.contains { $0.path == "/gone" }
            }
            #expect(deliveries.allSatisfy { $0.verified }, "\(deliveries.map { $0.error ?? "" })")
            let all = deliveries.filter { $0.path == "/all" }
            #expect(
                all.compactMap { $0.payload?.type }.sorted() == [
                    "account.created", "passkey.added", "signin.succeeded",
                ])
            #expect(all.allSatisfy { $0.payload?.data?["userId"] == user })
            let flaky = deliveries.filter { $0.path == "/flaky" }
            try #require(flaky.count == 2 && all.count == 3)
            #expect(flaky.map { $0.payload?.type } == ["passkey.added", "passkey.added"])
            let addedIDs = all.compactMap { delivery in delivery.payload.map { ($0.type, delivery.id) } }
                .filter { type, _ in type == "passkey.added" }.map(\.1)
            #expect(
                flaky[0].id == flaky[1].id && addedIDs == [flaky[0].id],
                "one id per event: \(addedIDs) \(flaky.map(\.id))")
            #expect(deliveries.filter { $0.path == "/gone" }.map { $0.payload?.type } == ["signin.succeeded"])

            // What the operator sees, once the dispatcher has recorded the answers the receiver gave.
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline,
                try await server.store.webhookStatus().reduce(0, { $0 + $1.delivered + $1.failed }) < 5
            {
                try await Task.sleep(for: .milliseconds(100))
            }
            let services = ServerApplication.Services(
                configuration: server.configuration, store: server.store, metrics: ServerMetrics(), logger: quietLogger)
            let router = ServerApplication.makeAdminRouter(
                configuration: server.configuration, services: services, metrics: ServerMetrics(), logger: quietLogger)
            try await Application(router: router).test(.router) { admin in
                let answer = try await AdminAPITests.call(admin, .get, AdminPaths.webhooks)
                let list = try AdminAPITests.decode(AdminWebhookList.self, answer.text)
                let byName = Dictionary(uniqueKeysWithValues: list.endpoints.map { ($0.name, $0) })
                #expect(byName["everything"]?.delivered == 3 && byName["everything"]?.events == nil)
                #expect(byName["flaky"]?.delivered == 1 && byName["flaky"]?.lastError == "HTTP 503")
                #expect(byName["gone"]?.failed == 1 && byName["gone"]?.lastError == "HTTP 410")
                #expect(!answer.text.contains("whsec_"), "secrets stay in the file")
            }
        }
    }

    @Test("a receiver that is down when events happen gets each of them, once, when it is back")
    func receiverDown() async throws {
        let first = try await WebhookReceiver.belowEphemeralPorts()
        let port = first.port
        first.stop()
        let scratch = ScratchDirectory(prefix: "latchkey-webhooks-config")
        var settings = ServerSettings.test
        settings.webhooksFile = try Self.file([("down", "http://127.0.0.1:\(port)/hook", nil)], in: scratch)
        try await withServer(.sqlite, settings: settings) { server in
            _ = try await server.signedUpApp("bob", with: VirtualAuthenticator())
            // The first attempts find nothing listening (the client keeps trying to connect for the attempt's 15 s, and
            // then the delivery is tried again 5 s later); the receiver comes back meanwhile.
            try await Task.sleep(for: .seconds(3))
            #expect(try await server.store.webhookStatus().first?.delivered == 0)
            let back = try await WebhookReceiver(port: port)
            let deliveries = try await back.wait { $0.count >= 2 }
            try await Task.sleep(for: .seconds(1))
            #expect(back.deliveries().compactMap { $0.payload?.type }.sorted() == ["account.created", "passkey.added"])
            #expect(deliveries.allSatisfy { $0.verified })
            let status = try await server.store.webhookStatus()
            #expect(status.first?.delivered == 2 && status.first?.pending == 0, "\(status)")
        }
    }

    @Test("two instances on one PostgreSQL send each event once", .enabled(if: Backend.postgresURL != nil))
    func twoInstances() async throws {
        try await TestDatabase.with(.postgres) { database in
            let receiver = try await WebhookReceiver()
            let scratch = ScratchDirectory(prefix: "latchkey-webhooks-config")
            var settings = ServerSettings.test
            settings.webhooksFile = try Self.file([("shared", receiver.url("/hook"), nil)], in: scratch)
            let shared = settings
            try await withServer(on: database, settings: shared) { serverA in
                try await withServer(on: database, settings: shared) { serverB in
                    for (index, server) in [serverA, serverB, serverA, serverB].enumerated() {
                        _ = try await server.signedUpApp("user\(index)", with: VirtualAuthenticator())
                    }
                    _ = try await receiver.wait { $0.count >= 8 }
                    // Both instances poll every second: a repeat would show by now.
                    try await Task.sleep(for: .seconds(3))
                    let ids = receiver.deliveries().compactMap(\.id)
                    #expect(ids.count == 8 && Set(ids).count == 8, "\(ids)")
                }
            }
        }
    }

    @Test(
        "a delivery is retried on the schedule, given up after it or a day after its event, or when its endpoint is gone"
    )
    func givingUp() async throws {
        try await withServer(.sqlite) { server in
            let dispatcher = WebhookDispatcher(store: server.store, endpoints: [], logger: quietLogger)
            let occurred = Date()
            func delivery(attempts: Int) -> StoredWebhookDelivery {
                StoredWebhookDelivery(
                    id: 1, endpoint: "old",
                    event: StoredAuditEvent(
                        sequence: 1, event: AuditEvent(type: "passkey.added", occurredAt: occurred)),
                    attempts: attempts)
            }
            let now = occurred.addingTimeInterval(1)
            #expect(
                dispatcher.retryOrFail(delivery(attempts: 1), error: "HTTP 500", now: now)
                    == .retry(next: now.addingTimeInterval(5), error: "HTTP 500"))
            #expect(
                dispatcher.retryOrFail(delivery(attempts: 6), error: "HTTP 500", now: now)
                    == .retry(next: now.addingTimeInterval(36_000), error: "HTTP 500"))
            #expect(
                dispatcher.retryOrFail(delivery(attempts: 7), error: "HTTP 500", now: now) == .failed(error: "HTTP 500")
            )
            let late = occurred.addingTimeInterval(86_000)
            #expect(
                dispatcher.retryOrFail(delivery(attempts: 3), error: "HTTP 500", now: late)
                    == .failed(error: "HTTP 500"),
                "the next attempt would be more than a day after the event")

            // A delivery for an endpoint no longer in the file is given up, not tried.
            var event = AuditEvent(type: "passkey.added", occurredAt: occurred)
            event.notify = ["old"]
            try await server.store.recordAuditEvents([event])
            let due = try await server.store.claimWebhookDeliveries(
                now: now, leaseUntil: now.addingTimeInterval(60), limit: 10)
            #expect(due.count == 1)
            for claimed in due { await dispatcher.deliver(claimed, with: HTTPClient.shared, now: now) }
            let status = try await server.store.webhookStatus()
            #expect(status.first?.failed == 1 && status.first?.lastError?.contains("no longer") == true, "\(status)")
        }
    }

    @Test("a webhooks file that cannot work stops the start with what is wrong")
    func configuration() throws {
        let scratch = ScratchDirectory(prefix: "latchkey-webhooks-config")
        func refused(_ entries: String, auditDays: Int? = nil) throws -> String? {
            let path = scratch.path("hooks-\(UUID()).json")
            try entries.write(toFile: path, atomically: true, encoding: .utf8)
            var settings = ServerSettings.test
            settings.webhooksFile = path
            settings.auditRetentionDays = auditDays
            do {
                _ = try ServerConfiguration(settings)
                return nil
            } catch {
                return error.message
            }
        }
        let secret = WebhookReceiver.secret
        #expect(try refused(#"[{"name":"a","url":"https://example.com/h","secret":"\#(secret)"}]"#) == nil)
        #expect(
            try refused(#"[{"name":"a","url":"http://example.com/h","secret":"\#(secret)"}]"#)?.contains("https")
                == true)
        #expect(
            try refused(#"[{"name":"a","url":"https://example.com/h","secret":"whsec_c2hvcnQ="}]"#)?.contains("secret")
                == true)
        #expect(
            try refused(#"[{"name":"A b","url":"https://example.com/h","secret":"\#(secret)"}]"#)?.contains("name")
                == true)
        #expect(
            try refused(#"[{"name":"a","url":"https://example.com/h","secret":"\#(secret)","events":["nope"]}]"#)?
                .contains("'nope'") == true)
        #expect(try refused("{}")?.contains("JSON array") == true)
        #expect(
            try refused(#"[{"name":"a","url":"https://example.com/h","secret":"\#(secret)"}]"#, auditDays: 0)?
                .contains("--audit-retention-days") == true)
    }

    @Test("the signature is Standard Webhooks' v1: HMAC-SHA256 over id.timestamp.body, base64")
    func signature() {
        // The example of the Standard Webhooks specification's reference tests.
        let secret = Array(Data(base64Encoded: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")!)
        let body = Array(#"{"test": 2432232314}"#.utf8)
        #expect(
            WebhookSignature.sign(
                id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: body, secret: secret)
                == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }
}
