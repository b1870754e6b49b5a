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
    let usage: Usage

    /// CPU time and memory over the logins (not the registrations).
    struct Usage: Sendable {
        /// The CPU seconds the servers spent, from their `/metrics` (nil when one of them did not show it).
        var serverCPUSeconds: Double?
        /// The largest peak resident memory among the servers, in bytes.
        var serverPeakResidentBytes: Int?
        /// The CPU seconds this load generator spent.
        var clientCPUSeconds: Double
    }

    var logins: Int { latencies.count }
    var errorCount: Int { errors.values.reduce(0, +) }
    var loginsPerSecond: Double { seconds > 0 ? Double(logins) / seconds : 0 }

    /// CPU microseconds per login of the servers, if known.
    var serverCPUPerLogin: Double? {
        guard let cpu = usage.serverCPUSeconds, logins > 0 else { return nil }
        return cpu * 1_000_000 / Double(logins)
    }

    /// The summary: throughput, latency percentiles, errors, CPU and memory, then the machine-readable lines
    /// `logins_per_second=`, `p50_ms=`, `p99_ms=`, `errors=`, `server_cpu_us_per_login=`, `client_cpu_us_per_login=`,
    /// `server_peak_rss_mb=` and, with a baseline, `raw_verify_us=` and `server_cpu_per_login_in_raw_verifies=`.
    ///
    /// - Parameter rawVerify: microseconds of one raw P-256 verification measured in this run, the unit the server's
    ///   cost is given in.
    func report(servers: [URL], profile: PasskeyProfile, driver: LoadTestDriver, rawVerify: Double?) -> [String] {
        let sorted = latencies.sorted()
        func ms(_ percentile: Double) -> String {
            Self.format(LatencyHistogram.percentile(percentile, of: sorted) * 1000)
        }
        var lines = [
            "latchkey loadtest: \(clients) clients, \(profile.rawValue) profile, \(driver.rawValue) driver, \(servers.map(\.absoluteString).joined(separator: " "))",
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
            lines.append(
                "  hint: the server rate-limits each client address; run it with --rate-limit 0 for a load test")
        }
        let perLogin = { (seconds: Double) in logins > 0 ? Self.format(seconds * 1_000_000 / Double(logins)) : "0" }
        lines += [
            "logins_per_second=\(Self.format(loginsPerSecond))",
            "p50_ms=\(ms(50))",
            "p99_ms=\(ms(99))",
            "errors=\(errorCount)",
            "server_cpu_us_per_login=\(serverCPUPerLogin.map(Self.format) ?? "unknown")",
            "client_cpu_us_per_login=\(perLogin(usage.clientCPUSeconds))",
            "server_peak_rss_mb=\(usage.serverPeakResidentBytes.map { Self.format(Double($0) / 1_048_576) } ?? "unknown")",
        ]
        if let rawVerify, rawVerify > 0 {
            lines.append("raw_verify_us=\(Self.format(rawVerify))")
            if let serverCPUPerLogin {
                lines.append("server_cpu_per_login_in_raw_verifies=\(Self.format(serverCPUPerLogin / rawVerify))")
            }
        }
        return lines
    }

    static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
