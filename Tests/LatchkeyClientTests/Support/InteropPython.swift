import Foundation
import LatchkeyTestSupport
import Testing

/// The Python interpreter with py_webauthn and python-fido2 (made by scripts/python-env.sh), named by
/// `LATCHKEY_TEST_PYTHON`; interop tests are disabled without it.
enum InteropPython {
    static let variable = "LATCHKEY_TEST_PYTHON"

    static var interpreter: String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The trait that skips a test, with the reason, when no interpreter is configured.
    static var required: ConditionTrait {
        .enabled("set \(variable) to a python with `webauthn` and `fido2` (scripts/python-env.sh DIR prints one)") {
            interpreter != nil
        }
    }

    /// A script under Tests/Interop.
    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop").appendingPathComponent(name).path
    }

    /// Runs `script` with `input` on stdin and returns its stdout.
    static func run(_ script: String, input: Data) async throws -> Data {
        try await ChildProcess.run(try #require(interpreter), arguments: [Self.script(script)], input: input).output
    }
}
