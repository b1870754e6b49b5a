import Hummingbird
import LatchkeyAPI
import Logging

/// Turns every error into a JSON response with a stable code (``APIError/init(_:)``), so no failure reaches the client
/// as an empty 500 or a stack trace.
///
/// The body's shape is the route group's: the conformance profile's group answers
/// `{"status":"failed","errorMessage":"…","errorCode":"…"}` (``Format/conformance``); the router as a whole answers
/// `{"error":{"code":"…","message":"…"}}` (``Format/native``), also for a request that matched no route. Unexpected
/// errors are logged (by type, not content) and answered 500 `internalError`.
struct ErrorResponseMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// The error body of a route group.
    enum Format: Sendable {
        /// `{"error":{"code","message"}}`, with `credentialId`/`rpId` for `credential.notFound`.
        case native
        /// The FIDO conformance server's `ServerResponse`: `{"status":"failed","errorMessage","errorCode"}`.
        case conformance
    }

    var format: Format = .native

    @concurrent
    func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = APIError(error)
            if apiError.status.code >= 500 {
                context.logger.error(
                    "request failed", metadata: ["error.type": "\(type(of: error))", "error.code": "\(apiError.code)"])
            } else {
                context.logger.debug("request refused", metadata: ["error.code": "\(apiError.code)"])
            }
            return try Self.response(for: apiError, format: format)
        }
    }

    static func response(for error: APIError, format: Format) throws -> Response {
        switch format {
        case .conformance:
            return try .json(
                ServerResponse.failed(code: error.code, message: error.message), status: error.status,
                headers: error.headers)
        case .native:
            return try .json(
                APIErrorBody(
                    code: error.code, message: error.message, credentialId: error.credentialID, rpId: error.rpID,
                    reauthentication: error.reauthentication),
                status: error.status, headers: error.headers
            )
        }
    }
}
