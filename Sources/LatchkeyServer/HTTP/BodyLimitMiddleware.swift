import Hummingbird

/// Refuses request bodies over the configured limit with 413 `request.tooLarge`, before any route reads them:
/// at once when `Content-Length` says so, otherwise while collecting the body (which it then keeps in memory for
/// the route, in the request and in the context's `collectedBody`).
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let limit: Int

    @concurrent
    func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError.bodyTooLarge
        }
        var (request, context) = (request, context)
        context.collectedBody = try await request.collectBody(upTo: limit)
        return try await next(request, context)
    }
}
