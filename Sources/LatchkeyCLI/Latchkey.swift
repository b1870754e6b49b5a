import ArgumentParser

/// The `latchkey` command: passkey verification, inspection and benchmarks from the shell.
///
/// Every command prints JSON (pretty, keys sorted) to standard output. A failure prints
/// `{"error": {"code": …, "message": …}}` and exits 1 when verification failed, 2 for a bad flag value or an
/// unreadable input, and 64 (ArgumentParser's usage status) for a malformed command line.
public struct Latchkey: AsyncParsableCommand {
    /// The top-level commands, in the order `--help` lists them. A new command goes here.
    static let commands: [any ParsableCommand.Type] = [
        Verify.self,
        Inspect.self,
        Metadata.self,
        Bench.self,
        Apple.self,
        Passkey.self,
        Serve.self,
        Migrate.self,
        RecoveryLink.self,
        Admin.self,
        LoadTest.self,
    ]

    public static let configuration = CommandConfiguration(
        commandName: "latchkey",
        abstract: "Passkeys (WebAuthn) for servers and apps: verify, inspect and benchmark.",
        subcommands: commands
    )

    public init() {}

    /// Parses `arguments` (without the program name) and runs the command against `io`, returning
    /// the exit status the process would have. Help and usage errors are written to `io` as text.
    public static func invoke(_ arguments: [String], io: CommandIO) async -> Int32 {
        let parsed: any ParsableCommand
        do {
            parsed = try parseAsRoot(arguments)
        } catch {
            io.line(fullMessage(for: error))
            return exitCode(for: error).rawValue
        }
        guard let command = parsed as? any LatchkeyCommand else {
            // A command group named without a subcommand: show its help, as `latchkey verify` does.
            io.line(helpMessage(for: type(of: parsed)))
            return 0
        }
        return await command.perform(io)
    }
}
