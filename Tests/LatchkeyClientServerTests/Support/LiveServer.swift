import Foundation
import HummingbirdTesting
import LatchkeyClient
import LatchkeyServer
import LatchkeyStore
import LatchkeyTestSupport
import Testing
import VirtualAuthenticator
import VirtualAuthenticatorClient

/// A real Latchkey server listening on a loopback port for one test, over a fresh database, and the
/// clients that reach it over real HTTP (``URLSessionTransport``).
struct LiveServer: Sendable {
    /// The web origin the authenticators claim: the server's default origin for RP ID `localhost`.
    static let origin = "http://localhost:8080"

    /// `http://127.0.0.1:<port>/`.
    let url: URL
    /// The server's store, to check what a request changed.
    let store: any LatchkeyStore
    /// The server's database, to change what no request can (``TestDatabase/ageSessionVerifications(by:)``).
    let database: TestDatabase

    /// A native-profile client with its own transport (no session yet).
    func native() -> NativeClient {
        NativeClient(server: url, transport: URLSessionTransport())
    }

    /// A conformance-profile client with its own transport and cookie jar, sending `origin` as a browser would.
    func conformance(origin: String? = LiveServer.origin) -> ConformanceClient {
        ConformanceClient(server: url, transport: URLSessionTransport(), origin: origin)
    }

    /// A passkey provider (discoverable, synced credentials) acting for ``origin``.
    static func passkeyProvider(choice: CredentialChoice = .mostRecent) -> VirtualAuthenticatorAdapter {
        VirtualAuthenticatorAdapter(
            VirtualAuthenticator(configuration: .passkeyProvider), origin: origin, choice: choice)
    }

    /// Runs `body` against a live server over a fresh database of `backend`, then removes the database.
    static func run(
        _ backend: Backend, configure: (inout ServerSettings) -> Void = { _ in },
        server configureServer: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (LiveServer) async throws -> Void
    ) async throws {
        var settings = ServerSettings()
        settings.rateLimit = 0
        configure(&settings)
        var configuration = try ServerConfiguration(settings)
        // Cheap password hashing: OWASP's N=2^17 costs over a second per hash in a debug build, and the suite
        // runs in parallel on two cores (the hasher's own tests use the real parameters).
        configuration.passwordHashing = ScryptParameters(logN: 10, blockSize: 8, parallelization: 1)
        configureServer(&configuration)
        let serverConfiguration = configuration
        try await TestDatabase.with(backend) { database in
            let store = try database.makeStore()
            // A server that fails to start fails the test with its reason, instead of leaving the run waiting for its port.
            try await ServerStartWatch.testLive(
                logger: TestDatabase.logger,
                making: { logger, started in
                    ServerApplication.make(
                        configuration: serverConfiguration, store: store, logger: logger, onServerRunning: started)
                }
            ) { client in
                let port = try #require(client.port, "the live test server reports its port")
                let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
                try await body(LiveServer(url: url, store: store, database: database))
            }
        }
    }
}
