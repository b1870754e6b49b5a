import ArgumentParser
import Foundation
import LatchkeyServer

/// `latchkey loadtest`: many concurrent virtual clients sign in to a running server again and again.
///
/// Each client has its own ``VirtualAuthenticator`` and registers one passkey; then every client signs in
/// (options, assertion, verification) in a loop until the duration is over, by the ``LoadTestDriver`` chosen: requests
/// written as bytes (``WireSignIn``, the default) or through the client library. On a terminal a progress line
/// is kept up to date on standard error; the summary ends with `logins_per_second=`, `p50_ms=`, `p99_ms=`,
/// `errors=`, the servers' CPU per login (from `process_cpu_seconds_total` in their `/metrics`, read before and after
/// the logins), the load generator's own, the servers' peak memory, and the cost of one raw P-256 verification
/// measured first in the same run, the unit the server's CPU per login is also given in. The load generator runs on
/// `--event-loops` SwiftNIO event loops (one by default), sized before the command runs
/// (``Latchkey/prepareRuntime(for:)``). `--server` may be repeated (instances sharing one store); the clients are
/// spread over them. Exits 1 when any registration or login failed.
struct LoadTest: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadtest",
        abstract: "Sign in to a running server from many concurrent virtual clients and report throughput and latency.",
        discussion:
            "Run the server with --rate-limit 0: every client comes from one address. The clients' origin must be one the server accepts (--origin)."
    )

    @Option(help: "The server's base URL, e.g. http://localhost:8080; repeat it for several instances sharing a store.")
    var server: [String]

    @Option(help: "A bearer token for the servers' /metrics, if they require one.")
    var metricsToken: String?

    @Flag(help: "Skip measuring raw P-256 verification first (the baseline the server's CPU per login is given in).")
    var noBaseline = false

    @Option(help: "Concurrent clients, each with its own virtual authenticator (1-4096).")
    var clients: Int = 16

    @Option(help: "How long the sign-ins run, in seconds.")
    var duration: Double = 10

    @Option(help: "native (/v1) or conformance (/attestation, /assertion).")
    var profile: PasskeyProfile = .native

    @Option(
        help:
            "wire (each request written as bytes, the cheapest load) or client (through the client library apps use). Registration always goes through the client library."
    )
    var driver: LoadTestDriver = .wire

    @Option(
        help:
            "The load generator's SwiftNIO event loops (threads). One by default: on a machine it shares with the server, one loop costs it about a fifth less CPU per login than one per core; at its ~100 µs per login one core drives about 10,000 logins per second."
    )
    var eventLoops: Int = 1

    @Option(help: "The origin the clients claim (default: each server URL's origin).")
    var origin: String?

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard !server.isEmpty else { throw .usage("badServer", "give at least one --server") }
        var servers: [ServerURL] = []
        for text in server { servers.append(try ServerURL(text)) }
        guard (1...4096).contains(clients) else { throw .usage("clients", "\(clients) is not between 1 and 4096") }
        guard duration > 0, duration <= 86_400 else {
            throw .usage("duration", "\(duration) seconds is not between 0 and one day")
        }
        guard Self.eventLoopRange.contains(eventLoops) else {
            throw .usage(
                "eventLoops",
                "\(eventLoops) is not between \(Self.eventLoopRange.lowerBound) and \(Self.eventLoopRange.upperBound)")
        }
        let targets = servers.map { server in
            LoadTestRunner.Target(
                server: server.url, origin: origin ?? server.origin,
                metrics: server.url.appendingPathComponent("metrics"), metricsToken: metricsToken
            )
        }
        let rawVerify = noBaseline ? nil : try await Self.rawVerifyMicroseconds()

        let runner = LoadTestRunner(
            targets: targets, clients: clients, duration: .milliseconds(Int64(duration * 1000)), profile: profile,
            driver: driver
        )
        let progress = LoadTestRunner.Progress()
        let onTerminal = isatty(STDERR_FILENO) == 1
        let result = await runner.run(progress: progress) { elapsed in
            guard onTerminal else { return }
            let logins = progress.logins.load(ordering: .relaxed)
            let line = String(
                format: "\r%6.1f s  %9d logins  %9.1f/s  errors %d ", elapsed, logins,
                Double(logins) / max(elapsed, 0.001),
                progress.errors.load(ordering: .relaxed)
            )
            FileHandle.standardError.write(Data(line.utf8))
        }
        if onTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
        for line in result.report(servers: servers.map(\.url), profile: profile, driver: driver, rawVerify: rawVerify) {
            io.line(line)
        }
        guard result.errorCount == 0 else {
            throw CommandError(
                code: "loadtest.errors",
                message: "\(result.errorCount) registrations or logins failed (see the summary)", exitStatus: 1
            )
        }
    }

    /// The event loop counts `--event-loops` takes (the server's range).
    static let eventLoopRange = ServerConfiguration.eventLoopRange

    /// One raw P-256 verification with swift-crypto, in microseconds: the fastest of 100 rounds of about 5 ms.
    private static func rawVerifyMicroseconds() async throws(CommandError) -> Double {
        let fixtures: BenchFixtures
        do {
            fixtures = try BenchFixtures()
        } catch {
            throw CommandError(
                code: "internalError", message: "could not build the baseline's fixtures: \(error)", exitStatus: 1)
        }
        let measurements = try await BenchClock(rounds: 100).measure([BenchFixtures.rawVerifyPhase(fixtures)])
        return measurements[0].microsecondsPerOperation
    }
}
