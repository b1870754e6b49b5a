/// The one AuthenticationServices ceremony an adapter has in flight, and its lifecycle: started, then finished
/// exactly once by the delegate, by ``cancel()``, by the caller's task being cancelled, or by its timeout.
///
/// - A second ceremony started while one is pending is refused at once with ``AuthenticatorError/Code/notAllowed``
///   ("a request is already pending", as browsers answer a second `navigator.credentials` call); the first caller
///   still gets its result.
/// - ``cancel()`` and the timeout stop the system sheet (the `stop` action `start` returned, which calls
///   `ASAuthorizationController.cancel()`) and end the ceremony with ``AuthenticatorError/Code/cancelled`` or
///   ``AuthenticatorError/Code/timedOut``, so a delegate that never fires can't block every later ceremony.
/// - Each ceremony has a ``Ticket``; a late delegate call for an earlier ceremony (the `canceled` error the
///   controller reports after `cancel()`) carries the old ticket and is ignored.
@MainActor
final class PendingCeremony<Value: Sendable> {
    /// Identifies one ceremony.
    struct Ticket: Hashable, Sendable {
        fileprivate let number: Int
    }

    private var continuation: CheckedContinuation<Result<Value, AuthenticatorError>, Never>?
    private var current: Ticket?
    private var stop: (@MainActor () -> Void)?
    private var timeoutTask: Task<Void, Never>?
    private var issued = 0

    init() {}

    /// Whether a ceremony is waiting for its result.
    var isPending: Bool { continuation != nil }

    /// Runs one ceremony. `start` begins it (builds and performs the requests) and returns the action that stops
    /// it; whatever ``finish(_:for:)`` is then given for this ticket is the result.
    /// - Throws: what `start` throws; ``AuthenticatorError/Code/notAllowed`` while another ceremony is pending;
    ///   ``AuthenticatorError/Code/cancelled`` after ``cancel()`` or when the calling task is cancelled;
    ///   ``AuthenticatorError/Code/timedOut`` when `timeout` passes first.
    func run(
        timeout: Duration?,
        start: (Ticket) throws(AuthenticatorError) -> (@MainActor () -> Void)
    ) async throws(AuthenticatorError) -> Value {
        guard continuation == nil else {
            throw AuthenticatorError(.notAllowed, "another passkey request is still in progress")
        }
        guard !Task.isCancelled else {
            throw AuthenticatorError(.cancelled, "the request was cancelled before it started")
        }
        issued += 1
        let ticket = Ticket(number: issued)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<Value, AuthenticatorError>, Never>) in
                self.continuation = continuation
                current = ticket
                do throws(AuthenticatorError) {
                    stop = try start(ticket)
                } catch {
                    finish(.failure(error), for: ticket)
                    return
                }
                if let timeout, isPending {
                    timeoutTask = Task { [weak self] in
                        try? await Task.sleep(for: timeout)
                        guard !Task.isCancelled else { return }
                        self?.end(ticket, with: AuthenticatorError(.timedOut, "no answer within \(timeout)"))
                    }
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in
                self?.end(ticket, with: AuthenticatorError(.cancelled, "the request was cancelled"))
            }
        }
        return try result.get()
    }

    /// Ends the ceremony `ticket` with `result`; does nothing when that ceremony is no longer pending.
    func finish(_ result: Result<Value, AuthenticatorError>, for ticket: Ticket) {
        guard ticket == current, let continuation else { return }
        self.continuation = nil
        current = nil
        stop = nil
        timeoutTask?.cancel()
        timeoutTask = nil
        continuation.resume(returning: result)
    }

    /// Stops the pending ceremony, if any: its sheet is dismissed and its caller gets
    /// ``AuthenticatorError/Code/cancelled``.
    func cancel() {
        guard let current else { return }
        end(current, with: AuthenticatorError(.cancelled, "the request was cancelled"))
    }

    private func end(_ ticket: Ticket, with error: AuthenticatorError) {
        guard ticket == current else { return }
        let stop = self.stop
        finish(.failure(error), for: ticket)
        stop?()
    }
}
