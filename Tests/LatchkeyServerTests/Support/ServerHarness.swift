import Foundation
import Hummingbird
import HummingbirdTesting
import LatchkeyServer
import LatchkeyStore
@_exported import LatchkeyTestSupport
import Logging
import Testing

/// A Latchkey server running on a loopback port for one test, over a fresh database.
struct ServerHarness: Sendable {
    /// The web origin the tests' browser and authenticators claim (the default origin for RP ID `localhost`).
    static let origin = "http://localhost:8080"

    let database: TestDatabase
    /// The server's store, to check what a request changed.
    let store: any LatchkeyStore
    let configuration: ServerConfiguration
    let client: any TestClientProtocol

    /// A new client (cookie jar) that sends `Origin` like a browser on the site would.
    func browser(origin: String? = ServerHarness.origin) -> HTTPSession {
        HTTPSession(client, origin: origin)
    }

    /// A new client that sends no `Origin` (an app).
    func app() -> HTTPSession {
        HTTPSession(client)
    }
}

extension ServerSettings {
    /// The settings of most tests: the defaults, with rate limiting off.
    static var test: ServerSettings {
        var settings = ServerSettings()
        settings.rateLimit = 0
        return settings
    }
}

/// Cheap scrypt for test servers, which `withServer` sets before `configure`: one hash at the server's default
/// (OWASP's N = 2^17, checked in ``PasswordHasherTests``) takes about 1.8 s of CPU in a debug build, and every test that
/// signed up with a password paid it two or three times.
let testScrypt = ScryptParameters(logN: 10, blockSize: 8, parallelization: 1)

/// The server's logger in tests: errors only.
let quietLogger: Logger = {
    var logger = Logger(label: "latchkey.server.test")
    logger.logLevel = .error
    return logger
}()

/// Expects a server over `store` to fail to start (``ServerStartWatch``) with an error that mentions `reason`.
func expectStartFailure(
    configuration: ServerConfiguration, store: any LatchkeyStore, because reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    await #expect(sourceLocation: sourceLocation) {
        try await ServerStartWatch.testLive(
            logger: quietLogger,
            making: { logger, started in
                ServerApplication.make(
                    configuration: configuration, store: store, logger: logger, onServerRunning: started)
            }
        ) { _ in }
    } throws: { error in
        "\(error)".contains("failed to start") && "\(error)".contains(reason)
    }
}

/// Runs `body` against a live server over a fresh database of `backend`, then removes the database. `wrapStore` puts a
/// store around the real one (``FaultInjectingStore``).
func withServer<T: Sendable>(
    _ backend: Backend, settings: ServerSettings = .test,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    wrapStore: @Sendable (any LatchkeyStore) -> any LatchkeyStore = { $0 },
    logger: Logger = quietLogger, _ body: @escaping @Sendable (ServerHarness) async throws -> T
) async throws -> T {
    try await TestDatabase.with(backend) { database in
        try await withServer(
            on: database, settings: settings, configure: configure, wrapStore: wrapStore, logger: logger, body)
    }
}

/// Runs `body` against a live server over `database` (which the caller removes): several can share one database.
func withServer<T: Sendable>(
    on database: TestDatabase, settings: ServerSettings = .test,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    wrapStore: @Sendable (any LatchkeyStore) -> any LatchkeyStore = { $0 },
    logger: Logger = quietLogger, _ body: @escaping @Sendable (ServerHarness) async throws -> T
) async throws -> T {
    var configured = try ServerConfiguration(settings)
    configured.passwordHashing = testScrypt
    configure(&configured)
    let configuration = configured
    let store = wrapStore(try database.makeStore())
    // A server that fails to start fails the test with its reason, instead of leaving the run waiting for its port.
    return try await ServerStartWatch.testLive(
        logger: logger,
        making: { logger, started in
            ServerApplication.make(configuration: configuration, store: store, logger: logger, onServerRunning: started)
        }
    ) { client in
        try await body(ServerHarness(database: database, store: store, configuration: configuration, client: client))
    }
}
