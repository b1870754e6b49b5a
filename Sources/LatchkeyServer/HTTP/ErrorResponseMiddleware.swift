import Hummingbird
import LatchkeyAPI
import Logging

/// Turns every error into a JSON response with a stable code, so no failure reaches the client as an empty 500
/// or a stack trace.
///
/// The conformance profile's paths answer `{"status":"failed","errorMessage":"…","errorCode":"…"}`; everything else
/// answers `{"error":{"code":"…","message":"…"}}`. Unexpected errors are logged (by type, not content) and
/// answered 500 `internalError`.
struct ErrorResponseMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = APIError(error)
            if apiError.status.code >= 500 {
                context.logger.error("request failed", metadata: ["error.type": "\(type(of: error))", "error.code": "\(apiError.code)"])
            } else {
                context.logger.debug("request refused", metadata: ["error.code": "\(apiError.code)"])
            }
            return try Self.response(for: apiError, path: request.uri.path)
        }
    }

    static func response(for error: APIError, path: String) throws -> Response {
        if ConformanceRoutes.paths.contains(path) {
            return try .json(ServerResponse.failed(code: error.code, message: error.message), status: error.status, headers: error.headers)
        }
        return try .json(
            APIErrorBody(code: error.code, message: error.message, credentialId: error.credentialID, rpId: error.rpID),
            status: error.status, headers: error.headers
        )
    }
}
