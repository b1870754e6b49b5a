extension ServiceError {
    /// 404 `apple.disabled`: the server runs without Sign in with Apple.
    static let appleDisabled = ServiceError(.appleDisabled, "Sign in with Apple is not configured on this server")

    /// 404 `apple.disabled` for the web flow: the server signs in with Apple from apps only.
    static let appleWebFlowDisabled = ServiceError(
        .appleDisabled, "The Sign in with Apple web flow is not configured on this server")

    /// 503 `apple.busy`: the instance issued its most nonces this minute.
    static func appleBusy(retryAfter wait: Duration) -> ServiceError {
        let seconds = wait.retryAfterSeconds
        return ServiceError(
            .appleBusy,
            "too many Sign in with Apple nonces were asked for this minute; try again in \(seconds) s",
            retryAfter: seconds)
    }

    /// 400 `apple.stateInvalid`: the web flow's state is unknown, used or malformed.
    static let appleStateInvalid = ServiceError(
        .appleStateInvalid,
        "no pending Sign in with Apple flow has this state: it was used, has expired, or never existed")

    static let appleNonceRequired = ServiceError(
        .appleNonceRequired,
        "send rawNonce: the nonce whose SHA-256 hex the app gave Apple (ASAuthorizationAppleIDRequest.nonce)"
    )
    static let appleNonceInvalid = ServiceError(
        .appleNonceInvalid,
        "rawNonce is not a nonce this server issued, or it was used: get one from POST /v1/apple/nonce for each sign-in"
    )
    static let appleCodeRequired = ServiceError(
        .appleCodeRequired,
        "the first Sign in with Apple needs the authorizationCode, so the server can revoke the authorization later"
    )
    static let appleLinkedToAnotherUser = ServiceError(
        .appleLinkedToAnotherUser,
        "this Apple ID signs in to another account; sign in with it and delete that account first"
    )
}
