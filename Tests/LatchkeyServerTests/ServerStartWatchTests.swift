import Foundation
import HummingbirdTesting
import LatchkeyServer
import LatchkeyStore
import Testing

/// The test harness's guard against a server that never starts (``ServerStartWatch``).
@Suite("Test servers that fail to start")
struct ServerStartWatchTests {
    @Test("a server whose store cannot be reached fails its test with the reason, instead of hanging the run", .timeLimit(.minutes(1)))
    func unreachableStoreFailsTheTest() async throws {
        // Port 1 on loopback: nothing listens there, so the start-up migration gives up after the operation timeout.
        let store = try PostgresStore(
            configuration: .init(
                host: "127.0.0.1", port: 1, username: "nobody", database: "none", tls: .disable, operationTimeout: .milliseconds(500)
            ),
            logger: quietLogger
        )
        let watch = ServerStartWatch()
        let app = ServerApplication.make(
            configuration: try ServerConfiguration(.test), store: store, logger: watch.logger(forwardingTo: quietLogger),
            onServerRunning: { _ in watch.started() }
        )
        await #expect {
            try await watch.run { try await app.test(.live) { _ in } }
        } throws: { error in
            "\(error)".contains("failed to start") && "\(error)".contains("unavailable")
        }
    }

    @Test("a server that starts runs its test and returns its value")
    func startedServerRunsTheTest() async throws {
        #expect(try await withServer(.sqlite) { server in try await server.app().send(.get, "/healthz").status.code } == 200)
    }
}
