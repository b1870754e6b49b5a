import AppleSignIn
import HTTPTypes
import Hummingbird
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

    init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
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
        case let error as CeremonyError:
            self = APIError(ceremonyError: error)
        case let error as WebAuthnError:
            self =
                error.code == .internalError
                ? .internal
                : APIError(.badRequest, code: error.code.rawValue, message: error.message)
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
        case .notFound: self.init(.notFound, code: error.code.rawValue, message: error.message)
        case .conflict: self.init(.conflict, code: error.code.rawValue, message: error.message)
        case .expired: self.init(.gone, code: error.code.rawValue, message: error.message)
        case .invalidRecord: self.init(.badRequest, code: error.code.rawValue, message: error.message)
        case .unavailable:
            self.init(.serviceUnavailable, code: error.code.rawValue, message: "the database is unavailable; try again")
        case .busy:
            self.init(
                .serviceUnavailable, code: error.code.rawValue, message: "the database is busy; try again",
                headers: [.retryAfter: "1"])
        default: self = .internal
        }
    }

    private init(ceremonyError error: CeremonyError) {
        switch error {
        case .notFound(let kind, let detail):
            self.init(
                .notFound, code: "ceremony.notFound",
                message: detail
                    ?? "no pending \(kind.rawValue) ceremony for this ticket: it was used, was not issued here, or was changed"
            )
        case .expired(let kind):
            self.init(
                .gone, code: "ceremony.expired", message: "the \(kind.rawValue) ceremony has expired; start again")
        case .nameTaken(let name, let addPasskeyHint):
            self.init(
                .conflict, code: "user.nameTaken",
                message: "the username '\(name)' is taken"
                    + (addPasskeyHint ? "; sign in as that account to add a passkey" : ""))
        case .nameConfusable(let name):
            self.init(
                .conflict, code: "user.nameConfusable",
                message: "the username '\(name)' looks like an existing one; choose another")
        case .credentialNotFound(let id, let rpID):
            self.init(
                .notFound, code: "credential.notFound",
                message: "this passkey is not registered here (it may have been deleted)")
            // The ID and RP ID let the client tell the passkey provider (PublicKeyCredential.signalUnknownCredential).
            credentialID = Base64URL.encode(id)
            self.rpID = rpID
        case .concurrentSignIn:
            self.init(
                .conflict, code: "credential.concurrentSignIn",
                message:
                    "this passkey signed in somewhere else at the same moment, so its signature counter cannot be trusted for this attempt; sign in again"
            )
        case .sessionRequired:
            self = .sessionRequired
        case .wrongUser:
            self.init(
                .forbidden, code: "session.wrongUser",
                message: "adding a passkey needs the session of the account it was begun for")
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
        self.init(error.status, code: code, message: message, headers: error.headers)
    }

    static let `internal` = APIError(.internalServerError, code: "internalError", message: "internal error")
    static let bodyTooLarge = APIError(
        .contentTooLarge, code: "request.tooLarge", message: "the request body is too large")
}

extension APIError {
    static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(.badRequest, code: code, message: message)
    }

    static let sessionRequired = APIError(
        .unauthorized, code: "session.required",
        message: "sign in first: send Authorization: Bearer <token> or the session cookie"
    )
}
