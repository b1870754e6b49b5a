/// Times operations with `ContinuousClock`: each is warmed up, then timed over many short rounds, keeping the best.
///
/// On a machine shared with other busy processes a long round is always interrupted; the fastest of many
/// short rounds (about 5 ms each by default) is the one that ran undisturbed. The rounds of all the phases
/// given together are interleaved (round 1 of every phase, then round 2, …), so a burst of load spoils one
/// round of each phase rather than a whole phase, and the ratios between phases stay meaningful.
struct BenchClock {
    /// Calls per round; nil picks a count that makes a round take about ``roundTarget``.
    var iterations: Int?
    /// Timed rounds per phase; the best is kept.
    var rounds = 200
    var roundTarget: Duration = .milliseconds(5)
    var warmUp: Duration = .milliseconds(200)

    /// One thing to time: it returns false if what it does failed (a failed run is not timed).
    struct Phase {
        let name: String
        let operation: () async -> Bool

        init(_ name: String, _ operation: @escaping () async -> Bool) {
            self.name = name
            self.operation = operation
        }
    }

    /// The timing of one phase.
    struct Measurement: Sendable {
        let name: String
        let microsecondsPerOperation: Double
        let iterations: Int
        let rounds: Int
    }

    func measure(_ phases: [Phase]) async throws(CommandError) -> [Measurement] {
        var counts: [Int] = []
        for phase in phases {
            counts.append(try await warmUpCount(phase))
        }
        var best = [Duration](repeating: .seconds(Int64.max), count: phases.count)
        for _ in 0..<rounds {
            for (index, phase) in phases.enumerated() {
                best[index] = min(best[index], try await time(phase, calls: counts[index]))
            }
        }
        return phases.indices.map { index in
            Measurement(
                name: phases[index].name,
                microsecondsPerOperation: best[index].seconds * 1_000_000 / Double(counts[index]),
                iterations: counts[index], rounds: rounds
            )
        }
    }

    /// Warms `phase` up (a tenth of ``iterations`` calls, or for ``warmUp``) and says how many calls a round makes.
    private func warmUpCount(_ phase: Phase) async throws(CommandError) -> Int {
        let clock = ContinuousClock()
        var calls = 0
        let start = clock.now
        repeat {
            guard await phase.operation() else { throw failed(phase) }
            calls += 1
        } while iterations.map { calls < max(1, $0 / 10) } ?? (clock.now - start < warmUp)
        if let iterations { return iterations }
        let perCall = max((clock.now - start) / calls, .nanoseconds(1))
        return max(1, Int(roundTarget / perCall))
    }

    private func time(_ phase: Phase, calls: Int) async throws(CommandError) -> Duration {
        let clock = ContinuousClock()
        var succeeded = 0
        let start = clock.now
        for _ in 0..<calls where await phase.operation() { succeeded += 1 }
        let elapsed = clock.now - start
        guard succeeded == calls else { throw failed(phase) }
        return elapsed
    }

    private func failed(_ phase: Phase) -> CommandError {
        CommandError(
            code: "bench.verificationFailed", message: "\(phase.name): the operation being timed failed", exitStatus: 1)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
