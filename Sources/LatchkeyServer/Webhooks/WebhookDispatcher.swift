import AsyncHTTPClient
import Foundation
import LatchkeyAPI
import LatchkeyStore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Sends the webhooks waiting in the store's outbox, as a service of the server: every ``pollInterval`` it claims the
/// deliveries due (``LatchkeyStore/WebhookStore/claimWebhookDeliveries(now:leaseUntil:limit:)``; on PostgreSQL several
/// instances claim different ones) and posts each, signed as Standard Webhooks says, to its endpoint. A 2xx answer
/// delivers it; 410 gives it up; anything else is tried again after 5 s, 5 min, 30 min, 2 h, 5 h and 10 h, and given
/// up a day after the event. At least once: an instance that stops between the answer and recording it sends the delivery again,
/// with the same `webhook-id`. Redirects are not followed. No request waits for any of this.
struct WebhookDispatcher: Service {
    let store: any LatchkeyStore
    let endpoints: [WebhookEndpoint]
    let logger: Logger
    var pollInterval: Duration = .seconds(1)

    /// How long after its event a delivery is tried.
    static let lifetime: TimeInterval = 86_400
    /// The waits after each failed attempt.
    static let retryDelays: [TimeInterval] = [5, 300, 1800, 7200, 18_000, 36_000]
    /// Deliveries taken per round.
    static let batch = 16
    /// How long one attempt may take.
    static let timeout: TimeAmount = .seconds(15)

    func run() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        await poll(with: client)
        try? await client.shutdown()
    }

    private func poll(with client: HTTPClient) async {
        await repeatedly(every: pollInterval) {
            do throws(StoreError) {
                let now = Date()
                // The lease outlasts an attempt, so a claimed delivery is not claimed again while it could be under way.
                let due = try await store.claimWebhookDeliveries(
                    now: now, leaseUntil: now.addingTimeInterval(60), limit: Self.batch)
                // At once, so that an endpoint that does not answer holds up no other.
                await withTaskGroup(of: Void.self) { group in
                    for delivery in due { group.addTask { await deliver(delivery, with: client) } }
                }
            } catch {
                logger.warning("the webhook outbox cannot be read", metadata: ["error.code": "\(error.code)"])
            }
        }
    }

    /// One attempt at `delivery`, and its outcome recorded.
    func deliver(_ delivery: StoredWebhookDelivery, with client: HTTPClient, now: Date = Date()) async {
        let outcome: WebhookOutcome
        if let endpoint = endpoints.first(where: { $0.name == delivery.endpoint }) {
            outcome = await attempt(delivery, to: endpoint, with: client, now: now)
        } else {
            outcome = .failed(error: "the endpoint is no longer in --webhooks-file")
        }
        if case .failed(let error) = outcome {
            logger.warning(
                "a webhook was given up",
                metadata: [
                    "endpoint": "\(delivery.endpoint)", "event": "\(delivery.event.sequence)", "error": "\(error)",
                ])
        }
        do {
            try await store.finishWebhookDelivery(id: delivery.id, outcome, at: now)
        } catch {
            logger.warning("a webhook's outcome was not recorded", metadata: ["error.code": "\(error.code)"])
        }
    }

    private func attempt(
        _ delivery: StoredWebhookDelivery, to endpoint: WebhookEndpoint, with client: HTTPClient, now: Date
    ) async -> WebhookOutcome {
        let id = "evt_\(delivery.event.sequence)"
        let timestamp = Int(now.timeIntervalSince1970)
        let body = Self.body(of: delivery.event)
        var request = HTTPClientRequest(url: endpoint.url.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: "Latchkey-Webhooks/1")
        request.headers.add(name: "webhook-id", value: id)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(
            name: "webhook-signature",
            value: WebhookSignature.sign(id: id, timestamp: timestamp, body: body, secret: endpoint.secret))
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: Self.timeout)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if (200..<300).contains(response.status.code) { return .delivered }
            // 410 Gone: the endpoint says not to send this again (as Standard Webhooks reads it).
            if response.status.code == 410 { return .failed(error: "HTTP 410") }
            return retryOrFail(delivery, error: "HTTP \(response.status.code)", now: now)
        } catch {
            return retryOrFail(delivery, error: "\(type(of: error)): \(error)", now: now)
        }
    }

    /// The next attempt's time, or the end: after the schedule, or a day after the event.
    func retryOrFail(_ delivery: StoredWebhookDelivery, error: String, now: Date) -> WebhookOutcome {
        let error = String(error.prefix(200))
        let index = delivery.attempts - 1
        guard index < Self.retryDelays.count else { return .failed(error: error) }
        let next = now.addingTimeInterval(Self.retryDelays[index])
        guard next.timeIntervalSince(delivery.event.event.occurredAt) < Self.lifetime else {
            return .failed(error: error)
        }
        return .retry(next: next, error: error)
    }

    /// The JSON body of a webhook for `stored`.
    static func body(of stored: StoredAuditEvent) -> [UInt8] {
        let payload = WebhookPayload(
            type: stored.event.type, timestamp: stored.event.occurredAt, data: AdminService.summary(stored))
        return Array((try? APIJSON.makeEncoder().encode(payload)) ?? Data())
    }
}
