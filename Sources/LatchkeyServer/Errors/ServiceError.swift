import LatchkeyStore

/// What a service throws when a request cannot be done for a reason the client should know: a catalogue code
/// (``ServerErrorCode``, whose HTTP status the HTTP layer's table gives) and a human message, never a secret.
/// Ceremony outcomes have their own type (``CeremonyError``); everything else a service throws is a ``ServiceError``.
struct ServiceError: Error, Sendable, Equatable {
    let code: ServerErrorCode
    let message: String
    /// Seconds after which trying again may succeed (the answer's `Retry-After`), for throttles and busy answers.
    var retryAfter: Int?

    init(_ code: ServerErrorCode, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }
}

extension StoreError {
    /// What this refusal of the store means to a service's caller: the error `meanings` gives for its code (a missing
    /// row is "no such passkey", a conflict "the last way in"), or this error itself for any other code.
    func meaning(_ meanings: [Code: any Error]) -> any Error { meanings[code] ?? self }
}
