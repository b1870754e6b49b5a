import Hummingbird
import Logging

/// Logs one line per request (method, path without query, status, duration, client address — never headers,
/// bodies, tokens or cookies) and counts it in ``ServerMetrics``; with the audit log on, tells it where the request came
/// from (``AuditLog/source``).
struct RequestObservationMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics
    let clients: ClientAddressResolver
    /// Whether to tell the audit log where each request came from (``AuditLog/source``).
    var audits = false

    @concurrent
    func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            if audits {
                let source = AuditSource(request, peer: context.remoteAddress, clients: clients)
                response = try await AuditLog.$source.withValue(source) { try await next(request, context) }
            } else {
                response = try await next(request, context)
            }
        } catch {
            // The error middleware inside answers every error; this is only reached if writing that answer failed.
            record(request, context: context, status: 500, start: start)
            throw error
        }
        record(request, context: context, status: response.status.code, start: start)
        return response
    }

    private func record(_ request: Request, context: Context, status: Int, start: ContinuousClock.Instant) {
        let route = context.endpointPath ?? "unmatched"
        metrics.recordRequest(route: route, method: request.method.rawValue, status: status)
        let elapsed = ContinuousClock.now - start
        // `.string` keeps each value as it is; an interpolation would copy the path into a new string.
        context.logger.info(
            "request",
            metadata: [
                "http.method": .string(request.method.rawValue),
                "http.path": .string(request.uri.path),
                "http.status": .string(String(status)),
                "duration_ms": .string(String(Double(elapsed.nanoseconds) / 1e6)),
                "client": .string(clients.clientAddress(of: request, peer: context.remoteAddress)),
            ])
    }
}
