import Foundation
import LatchkeyClient

/// The outcome of a load test, and its report.
struct LoadTestResult: Sendable {
    let clients: Int
    /// How many clients registered their passkey (the others count as errors and sent no logins).
    let registered: Int
    let registrationSeconds: Double
    /// How long the logins ran.
    let seconds: Double
    /// One sample per successful login.
    let latencies: LatencyHistogram
    /// Failed registrations and logins by error code.
    let errors: [String: Int]
    let firstError: LatchkeyClientError?

    var logins: Int { latencies.count }
    var errorCount: Int { errors.values.reduce(0, +) }
    var loginsPerSecond: Double { seconds > 0 ? Double(logins) / seconds : 0 }

    /// The summary: throughput, latency percentiles, errors, then the four machine-readable lines
    /// `logins_per_second=`, `p50_ms=`, `p99_ms=`, `errors=`.
    func report(server: URL, profile: PasskeyProfile) -> [String] {
        let sorted = latencies.sorted()
        func ms(_ percentile: Double) -> String { Self.format(LatencyHistogram.percentile(percentile, of: sorted) * 1000) }
        var lines = [
            "latchkey loadtest: \(clients) clients, \(profile.rawValue) profile, \(server.absoluteString)",
            "registered: \(registered) of \(clients) passkeys in \(Self.format(registrationSeconds)) s",
            "logins: \(logins) in \(Self.format(seconds)) s = \(Self.format(loginsPerSecond)) full logins per second",
            "latency ms: mean \(Self.format(latencies.mean * 1000))  p50 \(ms(50))  p90 \(ms(90))  p99 \(ms(99))  max \(ms(100))",
            "errors: \(errorCount)",
        ]
        for (code, count) in errors.sorted(by: { $0.value > $1.value }) {
            lines.append("  \(code): \(count)")
        }
        if let firstError { lines.append("  first: \(firstError)") }
        if errors["request.rateLimited"] != nil {
            lines.append("  hint: the server rate-limits each client address; run it with --rate-limit 0 for a load test")
        }
        lines += [
            "logins_per_second=\(Self.format(loginsPerSecond))",
            "p50_ms=\(ms(50))",
            "p99_ms=\(ms(99))",
            "errors=\(errorCount)",
        ]
        return lines
    }

    static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
