extension ServiceError {
    /// 404 `apple.disabled`: the server runs without Sign in with Apple (or without its web flow).
    static func appleDisabled(_ what: String) -> ServiceError {
        ServiceError(.appleDisabled, "\(what) is not configured on this server")
    }

    /// 404 `apple.disabled` for the web flow: the server signs in with Apple from apps only.
    static let appleWebFlowDisabled = appleDisabled("The Sign in with Apple web flow")

    /// 503 `apple.busy`: the instance issued its most nonces this minute.
    static func appleBusy(retryAfter wait: Duration) -> ServiceError {
        let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        return ServiceError(
            .appleBusy,
            "too many Sign in with Apple nonces were asked for this minute; try again in \(seconds) s",
            retryAfter: seconds)
    }

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
