import CoreMetrics
import Hummingbird
import LatchkeyStore
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// The server's metrics, kept in its own Prometheus registry (no process-wide bootstrap, so several servers can
/// run in one process) and written through the swift-metrics API:
///
/// - `latchkey_http_requests_total{route,method,status}`
/// - `latchkey_ceremonies_total{kind,outcome}` — kind `registration`/`authentication`, outcome `success`/`failure`
/// - `latchkey_verification_duration_seconds{kind}` — a histogram of the WebAuthn verification plus its store write
/// - `process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_resident_memory_peak_bytes` — the process's
///   CPU time and memory (``ProcessUsage``), read when the metrics are scraped
public final class ServerMetrics: Sendable {
    static let requestsLabel = "latchkey_http_requests_total"
    static let ceremoniesLabel = "latchkey_ceremonies_total"
    static let verificationLabel = "latchkey_verification_duration_seconds"

    private let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    /// One request counter per route, method and status, made once: making a swift-metrics `Counter` builds its
    /// dimensions and looks the series up in the registry, which was a visible part of a request's cost.
    private struct RequestSeries: Hashable {
        let route: String
        let method: String
        let status: Int
    }
    private let requestCounters = NIOLockedValueBox<[RequestSeries: CoreMetrics.Counter]>([:])
    private let ceremonyCounters = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    private let verificationTimers = NIOLockedValueBox<[CeremonyKind: Metrics.Timer]>([:])

    /// The metric for `key` in `cache`, made by `make` the first time.
    private static func cached<Key: Hashable, Metric>(
        _ cache: NIOLockedValueBox<[Key: Metric]>, _ key: Key, _ make: () -> Metric
    ) -> Metric {
        cache.withLockedValue { metrics in
            if let metric = metrics[key] { return metric }
            let metric = make()
            metrics[key] = metric
            return metric
        }
    }

    /// Metrics in a fresh Prometheus registry of their own.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[Self.verificationLabel] = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        self.factory = factory
    }

    /// Counts one answered request; `route` is the route's template (`/v1/me/passkeys/{id}`), never the raw path.
    func recordRequest(route: String, method: String, status: Int) {
        Self.cached(requestCounters, RequestSeries(route: route, method: method, status: status)) {
            CoreMetrics.Counter(
                label: Self.requestsLabel,
                dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
        }.increment()
    }

    /// Counts one finished ceremony.
    func recordCeremony(_ kind: CeremonyKind, succeeded: Bool) {
        let outcome = succeeded ? "success" : "failure"
        Self.cached(ceremonyCounters, kind.rawValue + "/" + outcome) {
            CoreMetrics.Counter(
                label: Self.ceremoniesLabel, dimensions: [("kind", kind.rawValue), ("outcome", outcome)],
                factory: factory)
        }.increment()
    }

    /// Records how long a verification took.
    func recordVerification(_ kind: CeremonyKind, duration: Duration) {
        Self.cached(verificationTimers, kind) {
            Metrics.Timer(label: Self.verificationLabel, dimensions: [("kind", kind.rawValue)], factory: factory)
        }.recordNanoseconds(duration.nanoseconds)
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> [UInt8] {
        registry.emitToBuffer() + Array(ProcessUsage.current().exposition.utf8)
    }

    /// The answer of `/metrics` and the admin API's metrics: the exposition as of now, never cached.
    func response() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: exposition())))
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// Whole seconds, rounded up and at least one: a `Retry-After` wait.
    var retryAfterSeconds: Int {
        max(1, Int(components.seconds) + (components.attoseconds > 0 ? 1 : 0))
    }
}
