import Foundation
import LatchkeyClient
import LatchkeyServer
import NIOCore
import Synchronization

/// Runs a load test: ``clients`` concurrent users, each with its own virtual authenticator, register once and
/// then sign in, once at least and again until ``duration`` has passed. With several servers (instances sharing one store)
/// the clients are spread over them in turn. Each server's `/metrics` is read just before and just after the
/// logins, for the CPU time the servers spent on them.
struct LoadTestRunner: Sendable {
    /// A server under test, the origin its clients claim, and where its metrics are read.
    struct Target: Sendable {
        let server: URL
        let origin: String
        let metrics: URL
        /// Sent as `Authorization: Bearer …` with the metrics request, for a server that guards `/metrics`.
        var metricsToken: String?
    }

    let targets: [Target]
    let clients: Int
    let duration: Duration
    let profile: PasskeyProfile
    var driver: LoadTestDriver = .wire

    /// Counters the progress line reads while the test runs.
    final class Progress: Sendable {
        let logins = Atomic<Int>(0)
        let errors = Atomic<Int>(0)
    }

    /// What one client saw.
    private struct ClientOutcome: Sendable {
        var latencies = LatencyHistogram()
        var errors: [String: Int] = [:]
        var firstError: LatchkeyClientError?

        mutating func fail(_ error: LatchkeyClientError) {
            errors[error.code, default: 0] += 1
            if firstError == nil { firstError = error }
        }
    }

    /// Registers the clients, runs the logins, and summarises. `tick` is called about once a second while the
    /// logins run, with the seconds elapsed.
    func run(progress: Progress = Progress(), tick: @escaping @Sendable (Double) -> Void = { _ in }) async
        -> LoadTestResult
    {
        // One connection per user, as each user's requests go one at a time to one server; one more for /metrics.
        let transports = (0..<clients).map { _ in KeepAliveHTTPTransport() }
        let metricsTransport = KeepAliveHTTPTransport()
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let users = (0..<clients).map { index in
            let target = targets[index % targets.count]
            return LoadClient(
                username: "loadtest-\(run)-\(index)", server: target.server, origin: target.origin, profile: profile,
                driver: driver, transport: transports[index]
            )
        }

        let clock = ContinuousClock()
        let registrationStart = clock.now
        let registered = await withTaskGroup(of: (LoadClient, LatchkeyClientError?).self) { group in
            for user in users {
                group.addTask {
                    do throws(LatchkeyClientError) {
                        try await user.register()
                        return (user, nil)
                    } catch {
                        return (user, error)
                    }
                }
            }
            var outcome: (ready: [LoadClient], failed: ClientOutcome) = ([], ClientOutcome())
            for await (user, error) in group {
                if let error { outcome.failed.fail(error) } else { outcome.ready.append(user) }
            }
            return outcome
        }
        let registrationTime = clock.now - registrationStart

        let serversBefore = await serverUsage(metricsTransport)
        let clientBefore = ProcessUsage.current()
        let start = clock.now
        let deadline = start + duration
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                if !Task.isCancelled { tick((clock.now - start).seconds) }
            }
        }
        let outcomes = await withTaskGroup(of: ClientOutcome.self) { group in
            for user in registered.ready {
                group.addTask {
                    var outcome = ClientOutcome()
                    // At least one sign-in each: on a machine busy enough that a client's task first runs after the
                    // deadline, a run would otherwise end with no logins at all (seen in a parallel test run).
                    repeat {
                        let began = clock.now
                        do throws(LatchkeyClientError) {
                            try await user.signIn()
                            outcome.latencies.record((clock.now - began).seconds)
                            progress.logins.add(1, ordering: .relaxed)
                        } catch {
                            outcome.fail(error)
                            progress.errors.add(1, ordering: .relaxed)
                        }
                    } while clock.now < deadline
                    return outcome
                }
            }
            var all: [ClientOutcome] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let elapsed = clock.now - start
        let clientAfter = ProcessUsage.current()
        let serversAfter = await serverUsage(metricsTransport)
        ticker.cancel()
        for transport in transports + [metricsTransport] { await transport.close() }

        var latencies = LatencyHistogram()
        var errors = registered.failed.errors
        var firstError = registered.failed.firstError
        for outcome in outcomes {
            latencies.merge(outcome.latencies)
            errors.merge(outcome.errors, uniquingKeysWith: +)
            firstError = firstError ?? outcome.firstError
        }
        return LoadTestResult(
            clients: clients, registered: registered.ready.count, registrationSeconds: registrationTime.seconds,
            seconds: elapsed.seconds, latencies: latencies, errors: errors, firstError: firstError,
            usage: LoadTestResult.Usage(
                serverCPUSeconds: zip(serversBefore, serversAfter).reduce(Optional(0.0)) { total, pair in
                    guard let total, let before = pair.0, let after = pair.1 else { return nil }
                    return total + after.cpuSeconds - before.cpuSeconds
                },
                serverPeakResidentBytes: serversAfter.compactMap { $0?.peakResidentBytes }.max(),
                clientCPUSeconds: clientAfter.cpuSeconds - clientBefore.cpuSeconds
            )
        )
    }

    /// Each target's process usage from its `/metrics` (nil for one that did not answer with it).
    private func serverUsage(_ transport: KeepAliveHTTPTransport) async -> [ProcessUsage?] {
        var usages: [ProcessUsage?] = []
        for target in targets {
            usages.append(await Self.usage(at: target.metrics, token: target.metricsToken, transport))
        }
        return usages
    }

    private static func usage(at metrics: URL, token: String?, _ transport: KeepAliveHTTPTransport) async
        -> ProcessUsage?
    {
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        guard
            let response = try? await transport.send(
                LatchkeyClient.HTTPRequest(method: "GET", url: metrics, headers: headers)),
            response.status == 200
        else { return nil }
        let text = String(decoding: response.body, as: UTF8.self)
        guard let cpu = ProcessUsage.sample("process_cpu_seconds_total", in: text) else { return nil }
        let peak = ProcessUsage.sample("process_resident_memory_peak_bytes", in: text).map { Int($0) } ?? 0
        return ProcessUsage(cpuSeconds: cpu, peakResidentBytes: peak, residentBytes: nil)
    }
}
