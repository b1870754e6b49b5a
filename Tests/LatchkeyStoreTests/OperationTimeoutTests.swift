import Testing

@testable import LatchkeyStore

@Suite("OperationTimeout")
struct OperationTimeoutTests {
    @Test func fastOperationReturnsItsValue() async throws {
        #expect(try await OperationTimeout.run(limit: .seconds(5)) { 42 } == 42)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellableOperationIsAbandonedAtTheLimit() async {
        let started = ContinuousClock.now
        await expectStoreError(.unavailable) {
            try await OperationTimeout.run(limit: .milliseconds(50)) {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func statementThatFinishesLateStillReturnsItsResult() async throws {
        // Like a PostgresNIO statement already sent: it ignores cancellation and completes.
        // A grace of a minute: under the parallel run's load, "late" can be seconds.
        let value = try await OperationTimeout.run(limit: .milliseconds(20), grace: .seconds(60)) {
            await Task.detached { try? await Task.sleep(for: .milliseconds(300)) }.value
            return "committed"
        }
        #expect(value == "committed")
    }

    @Test("an operation that neither finishes nor heeds cancellation is given up on after the limit and its grace")
    func stuckOperationIsAbandoned() async {
        // Like a request for a connection that PostgresNIO's pool never answers: cancellation does not reach it.
        // The operation would take two minutes; the call must end long before (the bound is loose: at the start of the
        // parallel run every test's tasks wait seconds for the two cooperative threads).
        let started = ContinuousClock.now
        await expectStoreError(.unavailable) {
            try await OperationTimeout.run(limit: .milliseconds(50), grace: .milliseconds(100)) {
                () async throws -> Int in
                await Task.detached { try? await Task.sleep(for: .seconds(120)) }.value
                return 1
            }
        }
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(150) && took < .seconds(90), "\(took)")
    }

    @Test(.timeLimit(.minutes(1)))
    func statementThatFailsLateIsUnavailable() async {
        // It fails only once the limit has cancelled it (a failure after the limit, whatever the machine's load).
        await expectStoreError(.unavailable) {
            try await OperationTimeout.run(limit: .milliseconds(20)) { () async throws -> Int in
                try? await Task.sleep(for: .seconds(30))
                throw StoreError(.conflict, "late")
            }
        }
    }

    @Test func errorsBeforeTheLimitPassThrough() async {
        await expectStoreError(.conflict) {
            try await OperationTimeout.run(limit: .seconds(5)) { () async throws -> Int in
                throw StoreError(.conflict, "taken")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheCallerCancelsTheOperation() async {
        let started = ContinuousClock.now
        let call = Task {
            try await OperationTimeout.run(limit: .seconds(30)) {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        try? await Task.sleep(for: .milliseconds(50))
        call.cancel()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("a thousand calls in a row each return their own value")
    func manyCallsInARow() async throws {
        for index in 0..<1_000 {
            #expect(try await OperationTimeout.run(limit: .milliseconds(200)) { index } == index)
        }
    }
}
