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
