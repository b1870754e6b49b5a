import Testing

@testable import LatchkeyClient

/// The lifecycle every AuthenticationServices ceremony runs through, on real continuations: one at a time, finished
/// once, by the delegate, ``PendingCeremony/cancel()``, the caller's task being cancelled, or the timeout.
@Suite("Pending ceremony")
@MainActor
struct PendingCeremonyTests {
    /// Stands in for the controller: records the tickets it was started with and how often it was stopped.
    @MainActor
    final class Host {
        let ceremony = PendingCeremony<String>()
        var tickets: [PendingCeremony<String>.Ticket] = []
        var stops = 0

        func start(timeout: Duration? = nil) async throws(AuthenticatorError) -> String {
            try await ceremony.run(timeout: timeout) { ticket in
                tickets.append(ticket)
                return { [self] in stops += 1 }
            }
        }

        /// Starts a ceremony in a task and returns once it is pending.
        func startPending(timeout: Duration? = nil) async -> Task<String, any Error> {
            let task = Task { try await start(timeout: timeout) }
            while !ceremony.isPending { await Task.yield() }
            return task
        }

        var ticket: PendingCeremony<String>.Ticket {
            get throws { try #require(tickets.last) }
        }
    }

    @Test("a second ceremony while one is pending is refused with notAllowed; the first still completes")
    func secondIsRefused() async throws {
        let host = Host()
        let first = await host.startPending()
        let refusal = await #expect(throws: AuthenticatorError.self) { try await host.start() }
        #expect(refusal?.code == .notAllowed)
        #expect(host.ceremony.isPending && host.tickets.count == 1)

        host.ceremony.finish(.success("first credential"), for: try host.ticket)
        #expect(try await first.value == "first credential")
        #expect(!host.ceremony.isPending && host.stops == 0)
    }

    @Test("cancel() stops the sheet and the caller gets cancelled; the next ceremony runs")
    func cancel() async throws {
        let host = Host()
        let first = await host.startPending()
        host.ceremony.cancel()
        let error = await #expect(throws: AuthenticatorError.self) { try await first.value }
        #expect(error?.code == .cancelled && host.stops == 1)
        host.ceremony.cancel()  // nothing pending: nothing happens
        #expect(host.stops == 1)

        let second = await host.startPending()
        host.ceremony.finish(.success("second"), for: try host.ticket)
        #expect(try await second.value == "second")
    }

    @Test("a delegate that never answers: the timeout ends the ceremony with timedOut and frees the next one")
    func timeout() async throws {
        let host = Host()
        let error = await #expect(throws: AuthenticatorError.self) { try await host.start(timeout: .milliseconds(20)) }
        #expect(error?.code == .timedOut && host.stops == 1 && !host.ceremony.isPending)

        let next = await host.startPending(timeout: .seconds(600))
        host.ceremony.finish(.success("in time"), for: try host.ticket)
        #expect(try await next.value == "in time")
    }

    @Test("cancelling the caller's task cancels the ceremony")
    func taskCancellation() async throws {
        let host = Host()
        let task = await host.startPending()
        task.cancel()
        let error = await #expect(throws: AuthenticatorError.self) { try await task.value }
        #expect(error?.code == .cancelled && host.stops == 1 && !host.ceremony.isPending)
    }

    @Test("a late answer for an earlier ceremony is ignored")
    func staleTicket() async throws {
        let host = Host()
        let first = await host.startPending()
        let oldTicket = try host.ticket
        host.ceremony.cancel()
        _ = await first.result

        let second = await host.startPending()
        // The cancelled controller reports `canceled` after the next ceremony started: it must not end that one.
        host.ceremony.finish(.failure(AuthenticatorError(.cancelled, "late")), for: oldTicket)
        #expect(host.ceremony.isPending)
        host.ceremony.finish(.success("second"), for: try host.ticket)
        #expect(try await second.value == "second")
    }

    @Test("a start that throws ends the ceremony with that error")
    func startThrows() async {
        let ceremony = PendingCeremony<String>()
        let error = await #expect(throws: AuthenticatorError.self) {
            try await ceremony.run(timeout: .seconds(1)) { _ throws(AuthenticatorError) in
                throw AuthenticatorError(.unsupported, "no such request here")
            }
        }
        #expect(error?.code == .unsupported && !ceremony.isPending)
    }
}
