import Foundation

/// What this process has used so far: CPU time (user + system, every thread) and resident memory. `/metrics`
/// shows it in the Prometheus process-metric names, and `latchkey loadtest` reads it from both sides of a run.
public struct ProcessUsage: Sendable, Equatable {
    /// User plus system CPU time of every thread, in seconds.
    public var cpuSeconds: Double
    /// The largest resident set size the process has had, in bytes.
    public var peakResidentBytes: Int
    /// The resident set size now, in bytes (nil where `/proc` is unavailable).
    public var residentBytes: Int?

    /// A usage read elsewhere (another process's `/metrics`).
    ///
    /// - Parameters:
    ///   - cpuSeconds: user plus system CPU time, in seconds.
    ///   - peakResidentBytes: the largest resident set size, in bytes.
    ///   - residentBytes: the resident set size now, in bytes, if known.
    public init(cpuSeconds: Double, peakResidentBytes: Int, residentBytes: Int?) {
        self.cpuSeconds = cpuSeconds
        self.peakResidentBytes = peakResidentBytes
        self.residentBytes = residentBytes
    }

    /// Reads the usage of the calling process (`getrusage(RUSAGE_SELF)` and, on Linux, `/proc/self/statm`).
    public static func current() -> ProcessUsage {
        var usage = rusage()
        #if os(Linux)
        _ = getrusage(RUSAGE_SELF.rawValue, &usage)
        let peak = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #else
        _ = getrusage(RUSAGE_SELF, &usage)
        let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        let resident = residentNow()
        // The kernel updates the high-water mark lazily: it can trail the resident size read a moment later.
        return ProcessUsage(
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakResidentBytes: max(peak, resident ?? 0),
            residentBytes: resident
        )
    }

    /// The second field of `/proc/self/statm` (resident pages) times the page size.
    private static func residentNow() -> Int? {
        #if os(Linux)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }

    /// The Prometheus text exposition: `process_cpu_seconds_total` (counter), `process_resident_memory_bytes` and
    /// `process_resident_memory_peak_bytes` (gauges).
    public var exposition: String {
        var lines = [
            "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.",
            "# TYPE process_cpu_seconds_total counter",
            "process_cpu_seconds_total \(cpuSeconds)",
        ]
        if let residentBytes {
            lines += [
                "# HELP process_resident_memory_bytes Resident memory size in bytes.",
                "# TYPE process_resident_memory_bytes gauge",
                "process_resident_memory_bytes \(residentBytes)",
            ]
        }
        lines += [
            "# HELP process_resident_memory_peak_bytes The largest resident memory size the process has had, in bytes.",
            "# TYPE process_resident_memory_peak_bytes gauge",
            "process_resident_memory_peak_bytes \(peakResidentBytes)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The value of the sample `name` (no labels) in a Prometheus text exposition, if present.
    ///
    /// - Parameters:
    ///   - name: the metric's name, e.g. `process_cpu_seconds_total`.
    ///   - exposition: the text `/metrics` answered.
    /// - Returns: the sample's value, or nil when the exposition has no such sample.
    public static func sample(_ name: String, in exposition: String) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
