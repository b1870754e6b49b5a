import Hummingbird

/// Limits the ceremony endpoints per client (``ClientAddressResolver/rateLimitKey(of:peer:)``: an IPv4 address or an
/// IPv6 /64): over the limit, 429 `request.rateLimited` with `Retry-After` in whole seconds.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let limiter: TokenBucketLimiter
    let clients: ClientAddressResolver

    @concurrent
    func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let client = clients.rateLimitKey(of: request, peer: context.remoteAddress)
        if let wait = limiter.acquire(client) {
            let seconds = wait.retryAfterSeconds
            throw APIError(
                .requestRateLimited, "too many requests from this address; retry in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        }
        return try await next(request, context)
    }
}
