import Foundation

/// Starts a Python helper of the tests (a server on a loopback port) and reads the `PORT <n>` line it prints once
/// listening.
enum PythonHelper {
    static func start(_ script: String, arguments: [String], python: String) async throws -> (ChildProcess, Int) {
        let process = try ChildProcess(python, arguments: [script] + arguments)
        let line = try await process.readOutput(until: { $0.contains(UInt8(ascii: "\n")) }, timeout: .seconds(60))
        guard line.contains(UInt8(ascii: "\n")) else {
            process.terminate()
            let errors = process.standardError?.readDataToEndOfFile() ?? Data()
            throw PythonHelperError(
                description: "\(script) did not start: \(String(decoding: line + errors, as: UTF8.self))")
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            throw PythonHelperError(description: "\(script) said '\(text)'")
        }
        return (process, port)
    }
}

/// A Python helper that did not start as it should.
struct PythonHelperError: Error, CustomStringConvertible {
    let description: String
}
