import ArgumentParser
import Foundation
import LatchkeyServer
import LatchkeyStore
import Logging

/// `latchkey recovery-link`: issues a single-use recovery link for a user who has lost every way in, straight into the
/// database (an operator's tool; the link opens the web page, which registers the user's new passkey).
///
/// Prints `{"token": …, "url": "<origin>/#recover=<token>", "expiresAt": …}`. Send the URL to the user over a channel you
/// trust: whoever has it can add a passkey to the account until it is used or expires.
struct RecoveryLink: LatchkeyCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery-link",
        abstract: "Issue a single-use link that lets a user add a new passkey to their account.")

    @Option(
        help: "sqlite:///path, a file path, or postgres://user:password@host:port/database (default ./latchkey.sqlite)."
    )
    var database: String = "latchkey.sqlite"

    @Option(help: "The account's username.")
    var username: String

    @Option(help: "The web origin whose page the link opens, e.g. https://example.com.")
    var origin: String

    @Option(help: "How long the link works, in seconds (default one day; at most a week).")
    var lifetime: Int = 86_400

    func execute(_ io: CommandIO) async throws(CommandError) {
        guard (60...7 * 86_400).contains(lifetime) else {
            throw .usage("lifetime", "\(lifetime) seconds is outside one minute to one week")
        }
        guard let url = URL(string: origin), ["http", "https"].contains(url.scheme), url.host != nil else {
            throw .usage("origin", "'\(origin)' is not an http(s) origin")
        }
        let storeURL: StoreURL
        do {
            storeURL = try StoreURL(database)
        } catch {
            throw .usage("database", error.message)
        }
        do {
            let store = try storeURL.makeStore(logger: Logger(label: "latchkey.recovery-link"))
            let issued = try await withThrowingTaskGroup(of: RecoveryLinks.Issued?.self) { group in
                group.addTask {
                    try await store.run()
                    return nil
                }
                defer { group.cancelAll() }
                try await store.migrate()
                return try await RecoveryLinks.issue(
                    for: username, origin: origin, lifetime: .seconds(lifetime), in: store)
            }
            io.emit(issued)
        } catch let error as StoreError {
            throw CommandError(code: error.code.rawValue, message: error.message, exitStatus: 1)
        } catch {
            throw CommandError(code: "store.failed", message: "\(error)", exitStatus: 1)
        }
    }
}
