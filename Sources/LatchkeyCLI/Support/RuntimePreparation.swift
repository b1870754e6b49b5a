import Foundation
import LatchkeyServer
import LatchkeyStore
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
    ///
    /// It first sizes that group, since the group cannot change size once made: for `serve` with the server's `eventLoops`
    /// setting (``serveEventLoops(_:environment:)``), for `loadtest` with its `--event-loops` (``loadTestEventLoops(_:)``).
    public static func prepareRuntime(for arguments: [String]) {
        guard let command = arguments.dropFirst().first, eventLoopCommands.contains(command) else { return }
        let commandArguments = Array(arguments.dropFirst(2))
        let loops =
            switch command {
            case "serve": serveEventLoops(commandArguments, environment: ProcessInfo.processInfo.environment)
            default: loadTestEventLoops(commandArguments)
            }
        if let loops { NIOSingletons.groupLoopCountSuggestion = loops }
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// The event loop count `loadtest`'s `arguments` ask for (one unless `--event-loops` says otherwise); nil when they do
    /// not parse or the count is out of range (the command reports those itself when it runs).
    static func loadTestEventLoops(_ arguments: [String]) -> Int? {
        guard let loadTest = try? LoadTest.parse(arguments), LoadTest.eventLoopRange.contains(loadTest.eventLoops)
        else { return nil }
        return loadTest.eventLoops
    }

    /// The event loop count `serve`'s `arguments` ask for, from its flags, then `environment`, then its config file, as
    /// the command reads its settings; nil when none is set or it is out of range, or when the arguments do not parse
    /// (the command reports those itself when it runs).
    static func serveEventLoops(_ arguments: [String], environment: [String: String]) -> Int? {
        guard let serve = try? Serve.parse(arguments),
            let settings = try? ServerSettings.load(
                flags: serve.flags.settings, configFile: serve.config, environment: environment),
            let loops = settings.eventLoops, ServerConfiguration.eventLoopRange.contains(loops)
        else { return nil }
        return loops
    }
}
