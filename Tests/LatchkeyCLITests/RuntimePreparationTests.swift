import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import LatchkeyCLI

/// `Latchkey.prepareRuntime(for:)`, which `main` calls first thing. Each test is a child process of its own: the
/// settings it makes are process-wide and take only before Swift Concurrency's executor is in use.
@Suite("Runtime preparation")
struct RuntimePreparationTests {
    @Test(
        "for loadtest, SwiftNIO's group has one event loop, or as many as --event-loops asks for",
        arguments: [([], 1), (["--event-loops", "3"], 3)])
    func sizesTheLoadGeneratorsGroup(_ flags: [String], loops: Int) async {
        await #expect(processExitsWith: .exitCode(0)) { [flags, loops] in
            Latchkey.prepareRuntime(for: ["latchkey", "loadtest", "--server", "http://127.0.0.1:1"] + flags)
            let count = Array(MultiThreadedEventLoopGroup.singleton.makeIterator()).count
            exit(count == loops ? 0 : 3)
        }
    }
}
