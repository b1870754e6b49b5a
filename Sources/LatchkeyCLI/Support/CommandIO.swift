import Foundation

/// Where a command writes its results. Commands never print directly, so tests can capture what they say.
public protocol OutputSink: Sendable {
    /// Writes `text` as it is (callers add the newline).
    func write(_ text: String)
}

/// The process's standard output.
public struct StandardOutput: OutputSink {
    public init() {}

    public func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// An output sink that keeps everything written to it, for tests and embedding.
public final class CapturedOutput: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    public init() {}

    public func write(_ text: String) {
        lock.withLock { buffer += text }
    }

    /// Everything written so far.
    public var text: String {
        lock.withLock { buffer }
    }
}

/// The streams a command talks to: its output and, for `-` arguments, its standard input.
public struct CommandIO: Sendable {
    public var output: any OutputSink
    /// Reads all of standard input; called only when an argument is `-`.
    public var readStandardInput: @Sendable () -> [UInt8]

    /// Streams for a command: tests pass a ``CapturedOutput`` and fixed input bytes.
    public init(output: any OutputSink, readStandardInput: @escaping @Sendable () -> [UInt8]) {
        self.output = output
        self.readStandardInput = readStandardInput
    }

    /// The process's real standard output and input.
    public static var standard: CommandIO {
        CommandIO(output: StandardOutput()) {
            Array(FileHandle.standardInput.readDataToEndOfFile())
        }
    }

    /// Writes `value` as pretty-printed JSON with sorted keys, followed by a newline.
    func emit(_ value: some Encodable) {
        output.write(JSONOutput.render(value) + "\n")
    }

    /// Writes one line of text.
    func line(_ text: String) {
        output.write(text + "\n")
    }
}
