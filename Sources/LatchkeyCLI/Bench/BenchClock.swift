/// Times one operation: warm up, then the best of several rounds with `ContinuousClock`.
struct BenchClock {
    /// Calls per round; nil picks a count that makes a round take about ``roundTarget``.
    var iterations: Int?
    var rounds = 3
    var roundTarget: Duration = .milliseconds(400)
    var warmUp: Duration = .milliseconds(200)

    /// The timing of one phase.
    struct Measurement: Sendable {
        let name: String
        let microsecondsPerOperation: Double
        let iterations: Int
        let rounds: Int
    }

    /// Measures `operation`, which returns false if the thing it does failed (a failed run is not timed).
    func measure(_ name: String, _ operation: () async -> Bool) async throws(CommandError) -> Measurement {
        let clock = ContinuousClock()
        // Warm-up: at least one call, and a count or a duration, as asked.
        var warmUpCalls = 0
        let warmUpStart = clock.now
        repeat {
            guard await operation() else { throw failed(name) }
            warmUpCalls += 1
        } while iterations.map { warmUpCalls < max(1, $0 / 10) } ?? (clock.now - warmUpStart < warmUp)
        let perCall = (clock.now - warmUpStart) / warmUpCalls
        let count = iterations ?? max(1, Int(roundTarget / max(perCall, .nanoseconds(1))))

        var best = Duration.seconds(Int64.max)
        for _ in 0..<rounds {
            var succeeded = 0
            let start = clock.now
            for _ in 0..<count where await operation() { succeeded += 1 }
            let elapsed = clock.now - start
            guard succeeded == count else { throw failed(name) }
            best = min(best, elapsed)
        }
        return Measurement(
            name: name, microsecondsPerOperation: Self.microseconds(best) / Double(count), iterations: count, rounds: rounds
        )
    }

    private func failed(_ name: String) -> CommandError {
        CommandError(code: "bench.verificationFailed", message: "\(name): the operation being timed failed", exitStatus: 1)
    }

    private static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    }
}
