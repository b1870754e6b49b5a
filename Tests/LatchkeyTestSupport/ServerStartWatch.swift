import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization

/// Turns a test server that fails to start into a test failure that says why, instead of a test that waits forever.
///
/// HummingbirdTesting's `.live` framework waits for the server's port without end: when the application stops before
/// it listens (its store could not be migrated, say), the test, and with it the whole `swift test` run, hangs. A
/// watch learns of the start from the application's `onServerRunning` (``started()``) and of a failure from the
/// application's logger (``logger(forwardingTo:)``: ServiceLifecycle reports a service's error there, at debug level),
/// and ``run(deadline:_:)`` throws ``ServerStartFailure`` at a failure or when the deadline passes first.
///
/// ``testLive(logger:making:_:)`` does all of it:
///
/// ```swift
/// try await ServerStartWatch.testLive(logger: logger, making: { logger, started in
///     ServerApplication.make(configuration: configuration, store: store, logger: logger, onServerRunning: started)
/// }) { client in … }
/// ```
public final class ServerStartWatch: Sendable {
    /// Makes an application with a watch (`makeApp` gets the logger to give it, forwarding to `logger`, and the hook
    /// to call once it listens) and runs `test` against it live, as HummingbirdTesting's `.live` framework does,
    /// failing with ``ServerStartFailure`` instead of waiting when the application does not start.
    public static func testLive<App: ApplicationProtocol & Sendable, T: Sendable>(
        logger: Logger,
        making makeApp: (_ logger: Logger, _ onServerRunning: @escaping @Sendable (Int) async -> Void) -> App,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let watch = ServerStartWatch()
        let app = makeApp(watch.logger(forwardingTo: logger)) { _ in watch.started() }
        return try await watch.run { try await app.test(.live, test) }
    }

    enum Outcome: Sendable {
        case started
        case failed(String)
        case timedOut
        case cancelled
    }

    private let state = Mutex<(outcome: Outcome?, waiter: CheckedContinuation<Outcome, Never>?)>((nil, nil))

    public init() {}

    /// The server listens: call from the application's `onServerRunning`.
    public func started() {
        resolve(.started)
    }

    /// `base` (the logger the test chose), plus the report of a service that failed before the server started.
    public func logger(forwardingTo base: Logger) -> Logger {
        var logger = Logger(label: base.label) { [self] _ in
            MultiplexLogHandler([base.handler, FailureLogHandler(watch: self)])
        }
        logger.logLevel = .debug
        return logger
    }

    /// Runs `body` (the test on the live application), throwing ``ServerStartFailure`` if the server fails to
    /// start, or has not started within `deadline`.
    public func run<T: Sendable>(deadline: Duration = .seconds(120), _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        let test = Task { try await body() }
        // The timer also ends the wait when the test is cancelled (or has its outcome already: then nothing changes).
        let timer = Task { [self] in
            try? await Task.sleep(for: deadline)
            resolve(Task.isCancelled ? .cancelled : .timedOut)
        }
        let outcome = await withTaskCancellationHandler {
            await self.outcome()
        } onCancel: {
            test.cancel()
            timer.cancel()
        }
        timer.cancel()
        switch outcome {
        case .started:
            return try await withTaskCancellationHandler {
                try await test.value
            } onCancel: {
                test.cancel()
            }
        case .failed(let reason):
            // The test task stays blocked on the port it will never get; the run goes on without it.
            test.cancel()
            throw ServerStartFailure(description: "the test server failed to start: \(reason)")
        case .timedOut:
            test.cancel()
            throw ServerStartFailure(description: "the test server did not start within \(deadline)")
        case .cancelled:
            test.cancel()
            throw CancellationError()
        }
    }

    private func resolve(_ outcome: Outcome) {
        let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    private func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Outcome? in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Reports the first event that carries ServiceLifecycle's error key (a service threw) as a failed start; once
    /// the server has started, a later report changes nothing.
    private struct FailureLogHandler: LogHandler {
        let watch: ServerStartWatch
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard let error = event.metadata?["sl-error"] else { return }
            watch.resolve(.failed("\(event.message): \(error)"))
        }
    }
}

/// A test server that failed to start, or did not start in time.
public struct ServerStartFailure: Error, CustomStringConvertible {
    public let description: String
}
