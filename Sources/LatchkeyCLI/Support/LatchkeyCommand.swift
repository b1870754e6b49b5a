import ArgumentParser

/// A `latchkey` command that does its work against injectable ``CommandIO``.
///
/// Conforming commands implement ``execute(_:)``; the default `run()` runs it against the real
/// terminal, prints a failure as `{"error": …}` and exits with the error's status. Tests call
/// ``perform(_:)`` (or ``Latchkey/invoke(_:io:)``) with a ``CapturedOutput`` instead.
public protocol LatchkeyCommand: AsyncParsableCommand {
    /// Does the command's work, writing results to `io`.
    func execute(_ io: CommandIO) async throws(CommandError)
}

extension LatchkeyCommand {
    public func run() async throws {
        let status = await perform(.standard)
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the command and returns its exit status; a failure is written to `io` as JSON.
    public func perform(_ io: CommandIO) async -> Int32 {
        do {
            try await execute(io)
            return 0
        } catch {
            io.emit(error.report)
            return error.exitStatus
        }
    }
}
