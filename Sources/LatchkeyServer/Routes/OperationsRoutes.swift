import Foundation
import Hummingbird
import LatchkeyAPI

/// Operations: `GET /healthz` (liveness: 200 while the process serves), `GET /readyz` (readiness: 200 when the store
/// answers too, 503 `store.unavailable` or `store.busy` otherwise) and `GET /metrics` (Prometheus text, only
/// with `Authorization: Bearer <metrics token>`: 401 `metrics.unauthorized` otherwise, 404 `metrics.disabled` when no
/// token is configured).
struct OperationsRoutes: Sendable {
    let accounts: AccountService
    let metrics: ServerMetrics
    let configuration: ServerConfiguration

    struct Health: Codable, Sendable {
        var status: String
    }

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(APIPaths.Operations.health)) { _, _ in
            try Response.json(Health(status: "ok"))
        }
        routes.get(RouterPath(APIPaths.Operations.ready)) { _, _ in
            try await accounts.checkStore()
            return try Response.json(Health(status: "ok"))
        }
        routes.get(RouterPath(APIPaths.Operations.metrics)) { request, _ in
            try MetricsAccess(token: configuration.metricsToken).check(request)
            return metrics.response()
        }
    }
}
