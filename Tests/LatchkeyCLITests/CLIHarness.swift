import Foundation
import LatchkeyCLI
import Testing
import WebAuthn

/// Runs `latchkey` in-process with captured output, and reads the test fixtures.
enum CLIHarness {
    struct Result {
        let status: Int32
        let output: String

        /// The output parsed as one JSON document.
        func json() throws -> JSONValue {
            try JSONDecoder().decode(JSONValue.self, from: Data(output.utf8))
        }

        /// `error.code` of a failure's JSON, if the output is one.
        var errorCode: String? {
            (try? json())?["error"]?["code"]?.stringValue
        }

        var lines: [String] {
            output.split(separator: "\n").map(String.init)
        }

        /// The number on a machine-readable `name=value` line, if there is one.
        func value(_ name: String) -> Double? {
            lines.first { $0.hasPrefix(name + "=") }.flatMap { Double($0.dropFirst(name.count + 1)) }
        }
    }

    static func run(_ arguments: [String], stdin: [UInt8] = []) async -> Result {
        let output = CapturedOutput()
        let io = CommandIO(output: output) { stdin }
        let status = await Latchkey.invoke(arguments, io: io)
        return Result(status: status, output: output.text)
    }

    /// The path of a file in Tests/LatchkeyCLITests/Fixtures (copied into the test bundle).
    static func fixture(_ name: String) throws -> String {
        try #require(
            Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
            "missing fixture \(name)"
        ).path
    }

    static func fixtureBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try fixture(name))))
    }

    /// A field of a fixture credential's `response`, as the base64url text the client sent.
    static func responseField(_ field: String, of name: String) throws -> String {
        let credential = try JSONDecoder().decode(JSONValue.self, from: Data(try fixtureBytes(name)))
        return try #require(credential["response"]?[field]?.stringValue)
    }
}

extension JSONValue {
    var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

extension [String] {
    /// These arguments with the value after `flag` replaced.
    func setting(_ flag: String, to value: String) throws -> [String] {
        let index = try #require(firstIndex(of: flag), "no \(flag) in \(self)")
        try #require(indices.contains(index + 1), "\(flag) has no value")
        var copy = self
        copy[index + 1] = value
        return copy
    }
}
