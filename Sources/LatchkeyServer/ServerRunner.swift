import Foundation
import Hummingbird
import LatchkeyStore
import Logging
import NIOPosix

/// Runs a Latchkey server until SIGTERM or SIGINT: what `latchkey serve` does after parsing its flags.
public enum ServerRunner {
    /// Opens the store named in `configuration`, prints one line once listening
    /// (`Latchkey listening on http://127.0.0.1:8080; open http://localhost:8080/ (RP ID localhost, …)`),
    /// and serves until a shutdown signal, then shuts down gracefully.
    ///
    /// - Throws: ``ConfigurationError`` when the store cannot be opened; errors of the server otherwise.
    public static func run(
        configuration: ServerConfiguration,
        logger: Logger = Logger(label: "latchkey.server"),
        announce: @escaping @Sendable (String) -> Void = { print($0) }
    ) async throws {
        if let metadata = configuration.metadata {
            let blob = try await metadata.load()
            announce(
                "FIDO metadata: \(metadata.location) (no. \(blob.number), \(blob.entries.count) entries, next update \(blob.nextUpdate.formatted(.iso8601.year().month().day())))"
            )
        }
        let store: any LatchkeyStore
        do {
            store = try configuration.database.makeStore(logger: logger)
        } catch {
            throw ConfigurationError("--database", error.message)
        }
        // The application serves on SwiftNIO's shared group, sized (or not) before anything used it.
        let eventLoops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator()).count
        if let warning = eventLoopWarning(found: eventLoops, configured: configuration.eventLoops) {
            logger.warning("\(warning)")
        }
        let app = ServerApplication.make(
            configuration: configuration, store: store, logger: logger,
            onServerRunning: { port in
                announce(startLine(configuration: configuration, port: port, eventLoops: eventLoops))
                announce(configuration.apple?.description ?? AppleConfiguration.offLine)
                announce(configuration.email?.description ?? EmailConfiguration.offLine)
                if let tokens = configuration.accessTokens { announce(tokens.description) }
            },
            onAdminRunning: { port in
                let host = configuration.admin?.host ?? "127.0.0.1"
                announce("Admin API listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)")
            })
        try await app.runService()
    }

    /// What to warn about when the shared group that serves has `found` loops and the configuration asks for
    /// `configured`: the group was made before anything sized it. Nil when they agree.
    static func eventLoopWarning(found: Int, configured: Int) -> String? {
        guard found != configured else { return nil }
        return """
            the shared event loop group has \(found) loops, not the \(configured) configured: size it before its first use \
            (NIOSingletons.groupLoopCountSuggestion), as latchkey serve does
            """
    }

    /// The line printed on start. It names the page's address (the first origin) apart from the socket's, because
    /// passkeys only work at an origin on the RP ID: `http://localhost:8080`, not `http://127.0.0.1:8080`.
    static func startLine(configuration: ServerConfiguration, port: Int, eventLoops: Int) -> String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let page = configuration.origins.first.map { "; open \($0)/" } ?? ""
        return
            "Latchkey listening on http://\(host):\(port)\(page) (RP ID \(configuration.rpID), origins \(configuration.origins.joined(separator: " ")), database \(configuration.database), \(eventLoops == 1 ? "1 event loop" : "\(eventLoops) event loops"))"
    }
}
