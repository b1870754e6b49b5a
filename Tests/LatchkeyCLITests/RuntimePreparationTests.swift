import Foundation
import GRDBSQLite
import LatchkeyStore
import NIOCore
import NIOPosix
import Testing

@testable import LatchkeyCLI

/// `Latchkey.prepareRuntime(for:)`, which `main` calls first thing. Each test is a child process of its own: the
/// settings it makes are process-wide and take only before SQLite (or Swift Concurrency's executor) is in use.
@Suite("Runtime preparation")
struct RuntimePreparationTests {
    @Test("for any command, SQLite's memory statistics are off before a store opens")
    func turnsSQLiteMemoryStatisticsOff() async {
        await #expect(processExitsWith: .exitCode(0)) {
            // `inspect` runs no event loops, so this checks the part that every command gets.
            Latchkey.prepareRuntime(for: ["latchkey", "inspect"])
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "latchkey-prepare-\(UUID().uuidString).sqlite"
            ).path
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            guard let store = try? SQLiteStore(path: path) else { exit(2) }
            // With the statistics on, SQLite counts what the open, migrated store holds (SQLiteMemoryStatisticsTests).
            let used = withExtendedLifetime(store) { sqlite3_memory_used() }
            exit(used == 0 ? 0 : 3)
        }
    }

    @Test("for any command, SQLite's write-ahead log is written through the VFS that batches a commit's frames")
    func batchesSQLiteLogWrites() async {
        await #expect(processExitsWith: .exitCode(0)) {
            Latchkey.prepareRuntime(for: ["latchkey", "inspect"])
            guard let vfs = sqlite3_vfs_find(nil) else { exit(2) }
            exit(String(cString: vfs.pointee.zName) == "latchkey-log-batching" ? 0 : 3)
        }
    }

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
