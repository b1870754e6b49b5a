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
