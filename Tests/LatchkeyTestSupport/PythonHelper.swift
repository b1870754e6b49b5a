import Foundation

/// Starts a Python helper of the tests (a server on a loopback port) and reads the `PORT <n>` line it prints once
/// listening.
enum PythonHelper {
    static func start(_ script: String, arguments: [String], python: String) async throws -> (ChildProcess, Int) {
        let process = try ChildProcess(python, arguments: [script] + arguments)
        let port = try await onOwnThread { try readPort(of: process, script: script) }
        return (process, port)
    }

    /// Reads the helper's output up to its first line, which must be `PORT <n>`.
    private static func readPort(of process: ChildProcess, script: String) throws -> Int {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = process.standardOutput.availableData
            guard !chunk.isEmpty else {
                let errors = process.standardError?.readDataToEndOfFile() ?? Data()
                throw PythonHelperError(
                    description: "\(script) did not start: \(String(decoding: errors, as: UTF8.self))")
            }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            throw PythonHelperError(description: "\(script) said '\(text)'")
        }
        return port
    }
}

/// A Python helper that did not start as it should.
struct PythonHelperError: Error, CustomStringConvertible {
    let description: String
}
