import Foundation
import LatchkeyTestSupport
import Testing

/// The tests' way of starting a child process (instead of Foundation's `Process`, which crashes now and then here).
@Suite("ChildProcess")
struct ChildProcessTests {
    @Test("exit codes, a signal, the environment and standard input reach the caller")
    func statusEnvironmentAndInput() async throws {
        #expect(try await ChildProcess.run("/bin/sh", arguments: ["-c", "exit 3"]).status == 3)
        #expect(try await ChildProcess.run("/bin/sh", arguments: ["-c", "kill -TERM $$"]).status == 128 + SIGTERM)
        let echoed = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", "printf %s \"$GREETING\"; cat"], environment: ["GREETING": "hello "],
            input: Data("world".utf8))
        #expect(echoed.status == 0 && String(decoding: echoed.output, as: UTF8.self) == "hello world")
    }

    @Test("reading a child's output stops once it holds what is waited for, or at the timeout if it never does")
    func readOutputUntilOrTimeout() async throws {
        let ready = try ChildProcess("/bin/sh", arguments: ["-c", "printf 'almost '; sleep 1; echo ready; sleep 30"])
        defer { ready.terminate() }
        let started = ContinuousClock.now
        let read = try await ready.readOutput(
            until: { String(decoding: $0, as: UTF8.self).contains("ready") }, timeout: .seconds(60))
        #expect(String(decoding: read, as: UTF8.self) == "almost ready\n")
        #expect(ContinuousClock.now - started < .seconds(20), "it stopped at the marker, not at the timeout")

        // Neither printing what is waited for nor exiting: the read gives up at its timeout, with what came.
        let silent = try ChildProcess("/bin/sh", arguments: ["-c", "printf partial; sleep 30"])
        defer { silent.terminate() }
        let before = ContinuousClock.now
        let partial = try await silent.readOutput(until: { _ in false }, timeout: .milliseconds(500))
        #expect(String(decoding: partial, as: UTF8.self) == "partial")
        #expect(ContinuousClock.now - before < .seconds(20), "it returned at its timeout, not when the child ended")
    }

    @Test("a child that fills both pipes finishes (each is read as it writes); merged streams share one pipe")
    func bothStreams() async throws {
        let script = "head -c 300000 /dev/zero >&2; head -c 200000 /dev/zero; echo done >&2"
        let separate = try await ChildProcess.run("/bin/sh", arguments: ["-c", script])
        #expect(separate.status == 0 && separate.output.count == 200_000 && separate.errors.count == 300_005)
        let merged = try await ChildProcess.run("/bin/sh", arguments: ["-c", script], mergingErrors: true)
        #expect(merged.output.count == 500_005 && merged.errors.isEmpty)
    }

    @Test("a child holds only its own three standard descriptors, none of another child's pipes")
    func noDescriptorLeaks() throws {
        // Each shell says it is ready (its libraries loaded, which opens files for a moment) and waits for a line.
        let waitForALine = ["-c", "echo ready; read line || true"]
        let first = try ChildProcess("/bin/sh", arguments: waitForALine)
        let second = try ChildProcess("/bin/sh", arguments: waitForALine)
        for child in [first, second] {
            #expect(String(decoding: child.standardOutput.availableData, as: UTF8.self) == "ready\n")
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").sorted()
            #expect(descriptors == ["0", "1", "2"])
        }
        for child in [first, second] {
            try child.standardInput.close()
            #expect(child.waitUntilExit() == 0)
        }
    }

    @Test("a program that cannot be started is an error, not a crash")
    func missingProgram() {
        #expect(throws: POSIXError.self) { try ChildProcess("/nonexistent/program", arguments: []) }
    }
}
