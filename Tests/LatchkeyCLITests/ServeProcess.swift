import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

/// A `latchkey serve` process on loopback ports the system picks (`--port 0`, `--admin-port 0`), read from its start
/// lines. Stop it with ``stop()`` in a `defer` (a test that only keeps its clients would let it go, and with it the
/// process, after its last use); it is stopped when released too.
final class ServeProcess: Sendable {
    /// The origin the passkey tests serve (`--rp-id localhost --origin http://localhost:8080`).
    static let origin = "http://localhost:8080"
    static let listening = "Latchkey listening on http://127.0.0.1:"

    let process: ChildProcess
    /// What the process printed until every marker had appeared.
    let startOutput: String
    /// The public listener.
    let url: URL

    /// Starts `latchkey serve` on `database` for ``origin`` without rate limits, with `arguments` added and
    /// `environment` over this process's, and waits (at most 30 s) until its output holds the public listener's line and
    /// every one of `markers` (``ChildProcess/readOutput(until:timeout:)``).
    init(
        database: String, _ arguments: [String] = [], environment: [String: String] = [:],
        waitingFor markers: [String] = []
    ) async throws {
        let process = try ChildProcess(
            try BinaryTests.executable().path,
            arguments: [
                "serve", "--host", "127.0.0.1", "--port", "0", "--database", database,
                "--rp-id", "localhost", "--origin", Self.origin, "--rate-limit", "0",
            ] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, mergingErrors: true)
        self.process = process
        let expected = [Self.listening] + markers
        startOutput = String(
            decoding: try await process.readOutput(
                until: { output in expected.allSatisfy(String(decoding: output, as: UTF8.self).contains) },
                timeout: .seconds(30)),
            as: UTF8.self)
        let port = try Self.port(after: Self.listening, in: startOutput)
        url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
    }

    deinit {
        process.terminate()
    }

    /// Ends the process (SIGTERM).
    func stop() {
        process.terminate()
    }

    /// The port printed right after `marker` (the admin listener's, say).
    func port(after marker: String) throws -> Int {
        try Self.port(after: marker, in: startOutput)
    }

    /// A client of the public listener, confirming with `reauthenticator` when the server asks.
    func client(reauthenticator: (any Authenticator)? = nil) -> NativeClient {
        NativeClient(server: url, transport: URLSessionTransport(), reauthenticator: reauthenticator)
    }

    private static func port(after marker: String, in output: String) throws -> Int {
        let start = try #require(output.range(of: marker), "latchkey serve did not print '\(marker)': \(output)")
        return try #require(Int(output[start.upperBound...].prefix { $0.isNumber }), "no port in: \(output)")
    }
}
