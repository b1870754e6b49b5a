import AppleSignIn
import HTTPTypes

extension APIError {
    /// What a client is told for an `AppleSignInError`: 400 with Apple's code for anything wrong with what the
    /// client sent (a token that fails verification, a used or expired code, a bad notification), 502 when Apple
    /// cannot be reached or refuses the server itself (its client secret), 500 for a local failure (sealing).
    init(appleError error: AppleSignInError) {
        switch error.code {
        case .keysUnavailable, .keysMalformed, .unreachable, .appleError, .invalidClient, .unauthorizedClient,
            .unsupportedGrantType, .invalidScope, .privateKeyInvalid, .clientSecretLifetime:
            self.init(
                .badGateway, code: error.code.rawValue, message: "Sign in with Apple is unavailable: \(error.message)")
        case .secretBoxSealFailed, .secretBoxOpenFailed, .secretBoxKeyInvalid:
            self = .internal
        default:
            self.init(.badRequest, code: error.code.rawValue, message: error.message)
        }
    }

    /// 404 `apple.disabled`: the server runs without Sign in with Apple (or without its web flow).
    static func appleDisabled(_ what: String) -> APIError {
        APIError(.notFound, code: "apple.disabled", message: "\(what) is not configured on this server")
    }

    /// 503 `apple.busy`: the instance issued its most nonces this minute.
    static func appleBusy(retryAfter wait: Duration) -> APIError {
        let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        return APIError(
            .serviceUnavailable, code: "apple.busy",
            message: "too many Sign in with Apple nonces were asked for this minute; try again in \(seconds) s",
            headers: [.retryAfter: String(seconds)])
    }

    static let appleNonceRequired = APIError.badRequest(
        "apple.nonceRequired",
        "send rawNonce: the nonce whose SHA-256 hex the app gave Apple (ASAuthorizationAppleIDRequest.nonce)"
    )
    static let appleNonceInvalid = APIError.badRequest(
        "apple.nonceInvalid",
        "rawNonce is not a nonce this server issued, or it was used: get one from POST /v1/apple/nonce for each sign-in"
    )
    static let appleCodeRequired = APIError.badRequest(
        "apple.codeRequired",
        "the first Sign in with Apple needs the authorizationCode, so the server can revoke the authorization later"
    )
    static let appleLinkedToAnotherUser = APIError(
        .conflict, code: "apple.linkedToAnotherUser",
        message: "this Apple ID signs in to another account; sign in with it and delete that account first"
    )
}
