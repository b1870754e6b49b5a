@testable import LatchkeyClient
import Testing

/// The rule ``PasskeysManager`` keeps for overlapping ceremonies, run on real continuations: the second
/// is refused at once and the first still gets its result.
@Suite("Pending ceremony")
@MainActor
struct PendingCeremonyTests {
    /// Stands in for the manager: holds the ceremony on the main actor, as the manager does.
    @MainActor
    final class Host {
        var ceremony = PendingCeremony<String>()

        func start() async throws -> String {
            try await withCheckedThrowingContinuation { continuation in _ = ceremony.begin(continuation) }
        }

        /// Starts a ceremony in a task and returns once it is pending.
        func startPending() async -> Task<String, any Error> {
            let task = Task { try await start() }
            while !ceremony.isPending { await Task.yield() }
            return task
        }
    }

    @Test("a second ceremony while one is pending is refused with notAllowed; the first still completes")
    func secondIsRefused() async throws {
        let host = Host()
        let first = await host.startPending()
        let refusal = await #expect(throws: AuthenticatorError.self) { try await host.start() }
        #expect(refusal?.code == .notAllowed)
        #expect(host.ceremony.isPending)

        host.ceremony.finish(.success("first credential"))
        #expect(try await first.value == "first credential")
        #expect(!host.ceremony.isPending)
    }

    @Test("after a ceremony ends, the next one runs and receives its own failure")
    func nextCeremonyAfterFinish() async throws {
        let host = Host()
        let first = await host.startPending()
        host.ceremony.finish(.success("done"))
        #expect(try await first.value == "done")

        let second = await host.startPending()
        host.ceremony.finish(.failure(AuthenticatorError(.cancelled, "dismissed")))
        let error = await #expect(throws: AuthenticatorError.self) { try await second.value }
        #expect(error?.code == .cancelled)
        host.ceremony.finish(.success("nobody waits"))  // nothing pending: ignored
        #expect(!host.ceremony.isPending)
    }
}
