import LatchkeyCLI

// Before any task runs: the commands that serve or generate HTTP load run Swift Concurrency on NIO's event loops.
Latchkey.prepareRuntime(for: CommandLine.arguments)
// In an async closure `main()` is AsyncParsableCommand's; at top level it is the sync one.
await Task { await Latchkey.main() }.value
