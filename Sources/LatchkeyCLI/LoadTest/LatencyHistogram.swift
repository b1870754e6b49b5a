/// Login latencies of a load test: count, mean and percentiles, kept exactly (a few hundred thousand samples at most).
struct LatencyHistogram: Sendable {
    /// Latencies in seconds, in the order recorded.
    private(set) var samples: [Double] = []

    var count: Int { samples.count }

    mutating func record(_ seconds: Double) {
        samples.append(seconds)
    }

    mutating func merge(_ other: LatencyHistogram) {
        samples.append(contentsOf: other.samples)
    }

    /// The latencies sorted, for ``percentile(_:of:)``.
    func sorted() -> [Double] { samples.sorted() }

    /// The `p`-th percentile (0…100) of `sorted` by the nearest-rank method; 0 when empty.
    static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var mean: Double { samples.isEmpty ? 0 : samples.reduce(0, +) / Double(samples.count) }
}
