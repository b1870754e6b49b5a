import NIOCore
import NIOPosix

extension Latchkey {
    /// The commands whose work is HTTP on SwiftNIO: `serve` and `loadtest`.
    static let eventLoopCommands: Set<String> = ["serve", "loadtest"]

    /// Prepares the process for the command in `arguments` (`CommandLine.arguments`). Call it once, first thing, from
    /// the main thread, before any task runs.
    ///
    /// For `serve` and `loadtest` it makes SwiftNIO's event loops Swift Concurrency's global executor
    /// (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`), so a request's
    /// handler runs on the thread that reads and writes its connection instead of hopping to the concurrency pool and
    /// back: on the 2-core development machine that removed most of the futex and scheduler time of a login (see
    /// docs/PERFORMANCE.md). Blocking work never runs there: password hashing has its own threads.
    public static func prepareRuntime(for arguments: [String]) {
        guard let command = arguments.dropFirst().first, eventLoopCommands.contains(command) else { return }
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
