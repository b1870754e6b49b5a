/// The one ceremony a ``PasskeysManager`` has in flight: the continuation its caller waits on.
///
/// A second ceremony started before the first finishes is refused with ``AuthenticatorError/Code/notAllowed``
/// ("a request is already pending", as browsers answer a second `navigator.credentials` call), so the first
/// caller still gets its result and no caller is left waiting forever.
struct PendingCeremony<Value> {
    private var continuation: CheckedContinuation<Value, any Error>?

    /// Whether a ceremony is waiting for its result.
    var isPending: Bool { continuation != nil }

    /// Makes `continuation` the ceremony in flight. When one already is, resumes `continuation` with
    /// ``AuthenticatorError/Code/notAllowed``, leaves the pending one alone and returns false.
    mutating func begin(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        guard self.continuation == nil else {
            continuation.resume(throwing: AuthenticatorError(.notAllowed, "another passkey request is still in progress"))
            return false
        }
        self.continuation = continuation
        return true
    }

    /// Ends the ceremony in flight with `result`; does nothing when none is pending.
    mutating func finish(_ result: sending Result<Value, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
    }
}
