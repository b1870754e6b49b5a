import Foundation
import GRDBSQLite
import Testing

@testable import LatchkeyStore

/// ``SQLiteStore/turnOffMemoryStatistics()``: a process-wide SQLite setting that only takes before SQLite starts.
@Suite("SQLite memory statistics")
struct SQLiteMemoryStatisticsTests {
    /// What SQLite says it holds while a store (created and migrated in a new file) is open; the file is removed after.
    static func memoryUsedWithAStoreOpen() throws -> Int64 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "latchkey-memstat-\(UUID().uuidString).sqlite"
        ).path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let store = try SQLiteStore(path: path)
        return withExtendedLifetime(store) { sqlite3_memory_used() }
    }

    @Test("turned off before SQLite starts, SQLite counts none of its allocations")
    func offInAFreshProcess() async {
        // A child process of its own: in this one SQLite has long been in use.
        await #expect(processExitsWith: .exitCode(0)) {
            guard SQLiteStore.turnOffMemoryStatistics() else { exit(1) }
            guard let used = try? SQLiteMemoryStatisticsTests.memoryUsedWithAStoreOpen() else { exit(2) }
            exit(used == 0 ? 0 : 3)
        }
    }

    @Test("once SQLite is in use the call changes nothing and says so; the statistics stay on")
    func tooLateOnceSQLiteIsInUse() throws {
        _ = try Self.memoryUsedWithAStoreOpen()
        #expect(SQLiteStore.turnOffMemoryStatistics() == false)
        #expect(try Self.memoryUsedWithAStoreOpen() > 0, "on by default, SQLite counts what it holds")
    }
}
