import Hummingbird

/// Refuses request bodies over the configured limit with 413 `request.tooLarge`, before any route reads them:
/// at once when `Content-Length` says so, otherwise while collecting the body (which it then keeps in memory for
/// the route, in the request and in the context's `collectedBody`). A body the server's connection has already read
/// whole comes in `collectedBody` and is only measured.
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
        if let body = context.collectedBody {
            // Read whole by the server's connection (`HTTP1ConnectionHandler`), which keeps at most a chunk over the limit.
            guard body.readableBytes <= limit else { throw APIError.bodyTooLarge }
            return try await next(request, context)
        }
        var (request, context) = (request, context)
        context.collectedBody = try await request.collectBody(upTo: limit)
        return try await next(request, context)
    }
}
