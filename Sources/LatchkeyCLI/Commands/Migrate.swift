import ArgumentParser
import Foundation
import LatchkeyStore
import Logging

/// `latchkey migrate`: brings a database's schema up to this version and exits, as its own deployment step before
/// instances start (they migrate at start too, under PostgreSQL's advisory lock, so two never race).
///
/// Prints `{"database": …, "migrated": true}`. A database a newer Latchkey has migrated is refused (`store.unavailable`,
/// exit 1, nothing changed), as `serve` refuses it.
struct Migrate: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrate a database's schema to this version (SQLite or PostgreSQL) and exit.")

    @Option(
        help: "sqlite:///path, a file path, or postgres://user:password@host:port/database (default ./latchkey.sqlite)."
    )
    var database: String = "latchkey.sqlite"

    struct Result: Encodable {
        var database: String
        var migrated: Bool
    }

    func execute(_ io: CommandIO) async throws(CommandError) {
        let url: StoreURL
        do {
            url = try StoreURL(database)
        } catch {
            throw .usage("database", error.message)
        }
        do {
            let store = try url.makeStore(logger: Logger(label: "latchkey.migrate"))
            // A PostgreSQL store's connection pool runs as a service beside the migration.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.run() }
                defer { group.cancelAll() }
                try await store.migrate()
            }
        } catch let error as StoreError {
            throw CommandError(code: error.code.rawValue, message: error.message, exitStatus: 1)
        } catch {
            throw CommandError(code: "store.failed", message: "\(error)", exitStatus: 1)
        }
        io.emit(Result(database: url.description, migrated: true))
    }
}
