import Foundation
import HummingbirdTesting
import LatchkeyServer
import LatchkeyStore
import Testing

/// The test harness's guard against a server that never starts (``ServerStartWatch``).
@Suite("Test servers that fail to start")
struct ServerStartWatchTests {
    @Test(
        "a server whose store cannot be reached fails its test with the reason, instead of hanging the run",
        .timeLimit(.minutes(1)))
    func unreachableStoreFailsTheTest() async throws {
        // Port 1 on loopback: nothing listens there, so the start-up migration gives up after the operation timeout.
        let store = try PostgresStore(
            configuration: .init(
                host: "127.0.0.1", port: 1, username: "nobody", database: "none", tls: .disable,
                operationTimeout: .milliseconds(500)
            ),
            logger: quietLogger
        )
        await expectStartFailure(configuration: try ServerConfiguration(.test), store: store, because: "unavailable")
    }

    @Test("a server that neither starts nor fails is a failure at the deadline", .timeLimit(.minutes(1)))
    func silentServerFailsAtTheDeadline() async {
        let watch = ServerStartWatch()
        await #expect {
            try await watch.run(deadline: .milliseconds(200)) { try await Task.sleep(for: .seconds(30)) }
        } throws: { error in
            "\(error)" == "the test server did not start within 0.2 seconds"
        }
    }

    @Test("a test cancelled before its server starts ends as cancelled, not as a late start", .timeLimit(.minutes(1)))
    func cancelledBeforeTheStart() async {
        let watch = ServerStartWatch()
        let waiting = Task { try await watch.run(deadline: .seconds(30)) { try await Task.sleep(for: .seconds(30)) } }
        try? await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test("a service failing after the start does not fail the test")
    func failureAfterTheStartIsNotAStartFailure() async throws {
        let watch = ServerStartWatch()
        let logger = watch.logger(forwardingTo: quietLogger)
        let value = try await watch.run {
            watch.started()
            logger.debug("Service threw error.", metadata: ["sl-error": "late"])
            return 7
        }
        #expect(value == 7)
    }

    @Test("a server that starts runs its test and returns its value")
    func startedServerRunsTheTest() async throws {
        #expect(
            try await withServer(.sqlite) { server in try await server.app().send(.get, "/healthz").status.code } == 200
        )
    }
}
