import AppleSignIn
import HTTPTypes
import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import NIOCore
import WebAuthn

/// A failed request as the client sees it: an HTTP status, a stable code and a human message (never a secret or
/// a stack). Every error a route throws becomes one through ``init(_:)``, the one table from the domain errors
/// (``CeremonyError``, `WebAuthnError`, `StoreError`, `AppleSignInError`) to status and code; ``ErrorResponseMiddleware``
/// writes it. Routes throw an `APIError` themselves only for what is about HTTP itself (a malformed body, a missing
/// cookie). docs/SERVER.md lists every code.
struct APIError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]
    /// For `credential.notFound`: the unknown credential's ID (base64url) and the RP ID, for the signal API.
    var credentialID: String?
    var rpID: String?
    /// For `reauth.required`: how the user can prove who they are again.
    var reauthentication: ReauthenticationOptions?

    /// An answer with a catalogue code, at the status the table gives it (``status(of:)``).
    init(_ code: ServerErrorCode, _ message: String, headers: HTTPFields = [:]) {
        self.init(status: Self.status(of: code), code: code.rawValue, message: message, headers: headers)
    }

    /// An answer with a code from another module's catalogue (WebAuthn's, the store's, Apple's): only the table below
    /// makes these.
    private init(status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// Maps any error to what the client is told: ``CeremonyError`` by case; `WebAuthnError` → 400 with its code;
    /// `StoreError` by code (not found 404, conflict 409, expired 410, unavailable and busy 503); an oversized body 413; anything
    /// unexpected 500 `internalError`, with no detail.
    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as ServiceError:
            self.init(
                error.code, error.message, headers: error.retryAfter.map { [.retryAfter: String($0)] } ?? [:])
        case let error as CeremonyError:
            self = APIError(ceremonyError: error)
        case let error as ReauthenticationRequired:
            self.init(.reauthRequired, "this change needs you to confirm it is you: re-authenticate, then try again")
            reauthentication = error.options
        case let error as WebAuthnError:
            self =
                error.code == .internalError
                ? .internal
                : APIError(status: .badRequest, code: error.code.rawValue, message: error.message)
        case let error as StoreError:
            self = APIError(storeError: error)
        case is NIOTooManyBytesError:
            self = .bodyTooLarge
        case let error as HTTPError:
            self = APIError(httpError: error)
        case let error as AppleSignInError:
            self = APIError(appleError: error)
        default:
            self = .internal
        }
    }

    private init(storeError error: StoreError) {
        switch error.code {
        case .notFound: self.init(status: .notFound, code: error.code.rawValue, message: error.message)
        case .conflict: self.init(status: .conflict, code: error.code.rawValue, message: error.message)
        case .expired: self.init(status: .gone, code: error.code.rawValue, message: error.message)
        case .invalidRecord: self.init(status: .badRequest, code: error.code.rawValue, message: error.message)
        case .unavailable:
            self.init(
                status: .serviceUnavailable, code: error.code.rawValue,
                message: "the database is unavailable; try again")
        case .busy:
            self.init(
                status: .serviceUnavailable, code: error.code.rawValue, message: "the database is busy; try again",
                headers: [.retryAfter: "1"])
        default: self = .internal
        }
    }

    private init(ceremonyError error: CeremonyError) {
        switch error {
        case .notFound(let kind, let detail):
            self.init(
                .ceremonyNotFound,
                detail
                    ?? "no pending \(kind.rawValue) ceremony for this ticket: it was used, was not issued here, or was changed"
            )
        case .expired(let kind):
            self.init(.ceremonyExpired, "the \(kind.rawValue) ceremony has expired; start again")
        case .nameTaken(let name, let addPasskeyHint):
            self.init(
                .userNameTaken,
                "the username '\(name)' is taken"
                    + (addPasskeyHint ? "; sign in as that account to add a passkey" : ""))
        case .nameConfusable(let name):
            self.init(.userNameConfusable, "the username '\(name)' looks like an existing one; choose another")
        case .credentialNotFound(let id, let rpID):
            self.init(.credentialNotFound, "this passkey is not registered here (it may have been deleted)")
            // The ID and RP ID let the client tell the passkey provider (PublicKeyCredential.signalUnknownCredential).
            credentialID = Base64URL.encode(id)
            self.rpID = rpID
        case .concurrentSignIn:
            self.init(
                .credentialConcurrentSignIn,
                "this passkey signed in somewhere else at the same moment, so its signature counter cannot be trusted for this attempt; sign in again"
            )
        case .sessionRequired:
            self = .sessionRequired
        case .wrongUser:
            self.init(.sessionWrongUser, "the ceremony belongs to another account than the session's")
        }
    }

    private init(httpError error: HTTPError) {
        let code =
            switch error.status {
            case .notFound: "request.notFound"
            case .methodNotAllowed: "request.methodNotAllowed"
            case .contentTooLarge: "request.tooLarge"
            default: error.status.code >= 500 ? "internalError" : "request.invalid"
            }
        let message = error.status.code >= 500 ? "internal error" : (error.body ?? error.status.reasonPhrase)
        self.init(status: error.status, code: code, message: message, headers: error.headers)
    }

    static let `internal` = APIError(.internalError, "internal error")
    static let bodyTooLarge = APIError(.requestTooLarge, "the request body is too large")
    static let sessionRequired = APIError(
        .sessionRequired, "sign in first: send Authorization: Bearer <token> or the session cookie")
}

extension APIError {
    /// What a client is told for an `AppleSignInError`: 400 with Apple's code for anything wrong with what the
    /// client sent (a token that fails verification, a used or expired code, a bad notification), 502 when Apple
    /// cannot be reached or refuses the server itself (its client secret), 500 for a local failure (sealing).
    fileprivate init(appleError error: AppleSignInError) {
        switch error.code {
        case .keysUnavailable, .keysMalformed, .unreachable, .appleError, .invalidClient, .unauthorizedClient,
            .unsupportedGrantType, .invalidScope, .privateKeyInvalid, .clientSecretLifetime:
            self.init(
                status: .badGateway, code: error.code.rawValue,
                message: "Sign in with Apple is unavailable: \(error.message)")
        case .secretBoxSealFailed, .secretBoxOpenFailed, .secretBoxKeyInvalid:
            self = .internal
        default:
            self.init(status: .badRequest, code: error.code.rawValue, message: error.message)
        }
    }
}

extension APIError {
    /// The HTTP table: the status each catalogue code answers with.
    static func status(of code: ServerErrorCode) -> HTTPResponse.Status {
        switch code {
        case .appleRevokeFailed: .badGateway
        case .adminInvalidQuery: .badRequest
        case .adminUnauthorized: .unauthorized
        case .adminUserNotFound: .notFound
        case .appleCallbackIncomplete, .appleClientMismatch, .appleCodeMismatch, .appleCodeRequired, .appleNonceExpired,
            .appleNonceInvalid, .appleNonceRequired, .appleStateExpired, .appleStateInvalid, .appleStateNotBound,
            .appleTokenReplayed, .appleTokenTooOld, .ceremonyCookieMissing, .emailCodeInvalid, .emailInvalid,
            .passkeyInvalidMediation, .passkeyInvalidName, .passwordCurrentRequired, .passwordTooCommon,
            .passwordTooLong, .passwordTooShort, .requestInvalid, .requestInvalidField, .requestMalformedJSON,
            .requestMissingField, .sessionAmbiguous, .userInvalidDisplayName, .userInvalidName:
            .badRequest
        case .appleLinkedToAnotherUser, .credentialConcurrentSignIn, .emailAlreadyVerified, .emailLimit, .emailTaken,
            .passkeyLastCredential, .passwordLastWayIn, .userNameConfusable, .userNameTaken:
            .conflict
        case .requestTooLarge: .contentTooLarge
        case .requestOriginNotAllowed, .sessionWrongUser: .forbidden
        case .ceremonyExpired: .gone
        case .internalError: .internalServerError
        case .requestMethodNotAllowed: .methodNotAllowed
        case .appleDisabled, .ceremonyNotFound, .credentialNotFound, .emailDisabled, .emailNotFound, .metricsDisabled,
            .passkeyNotFound, .tokenDisabled, .passwordDisabled, .passwordNotSet, .requestNotFound, .sessionNotFound:
            .notFound
        case .appleBusy, .passwordBusy: .serviceUnavailable
        case .emailThrottled, .passwordThrottled, .recoveryThrottled, .requestRateLimited: .tooManyRequests
        case .metricsUnauthorized, .passwordInvalid, .reauthRequired, .recoveryInvalid, .sessionInvalid, .tokenInvalid,
            .tokenReused, .sessionRequired:
            .unauthorized
        case .requestUnsupportedMediaType: .unsupportedMediaType
        }
    }
}
