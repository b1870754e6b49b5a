import AsyncHTTPClient
import Foundation
import LatchkeyClient
import NIOCore
import Synchronization

/// Runs a load test: ``clients`` concurrent users, each with its own virtual authenticator, register once and
/// then sign in again and again until ``duration`` has passed.
struct LoadTestRunner: Sendable {
    let server: URL
    let origin: String
    let clients: Int
    let duration: Duration
    let profile: PasskeyProfile

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
    func run(progress: Progress = Progress(), tick: @escaping @Sendable (Double) -> Void = { _ in }) async -> LoadTestResult {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(clients, 8))
        configuration.timeout = .init(connect: .seconds(3))
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let transport = AsyncHTTPTransport(client: http, timeout: .seconds(30))
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let users = (0..<clients).map { index in
            LoadClient(username: "loadtest-\(run)-\(index)", server: server, origin: origin, profile: profile, transport: transport)
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
                    while clock.now < deadline {
                        let began = clock.now
                        do throws(LatchkeyClientError) {
                            try await user.signIn()
                            outcome.latencies.record((clock.now - began).seconds)
                            progress.logins.add(1, ordering: .relaxed)
                        } catch {
                            outcome.fail(error)
                            progress.errors.add(1, ordering: .relaxed)
                        }
                    }
                    return outcome
                }
            }
            var all: [ClientOutcome] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let elapsed = clock.now - start
        ticker.cancel()
        try? await http.shutdown()

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
            seconds: elapsed.seconds, latencies: latencies, errors: errors, firstError: firstError
        )
    }
}
