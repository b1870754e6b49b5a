import Hummingbird
import LatchkeyAPI

/// The admin API (``AdminService``), on its own listener: every route needs an admin key (``AdminKeys``).
struct AdminRoutes: Sendable {
    let admin: AdminService
    let keys: AdminKeys
    let metrics: ServerMetrics

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(AdminPaths.users)) { request, _ in
            _ = try keys.authorize(request)
            let query = request.uri.queryParameters
            return try Response.json(
                try await admin.find(
                    name: query["name"].map(String.init), email: query["email"].map(String.init),
                    credentialID: query["credentialId"].map(String.init), appleID: query["appleId"].map(String.init)))
        }
        routes.get(RouterPath(AdminPaths.user(id: ":id"))) { request, context in
            _ = try keys.authorize(request)
            return try Response.json(try await admin.show(context.parameters.get("id") ?? ""))
        }
        routes.delete(RouterPath(AdminPaths.user(id: ":id"))) { request, context in
            try await acting(request, context) { key in
                try await admin.delete(context.parameters.get("id") ?? "", by: key)
                return Response.noContent
            }
        }
        routes.delete(RouterPath(AdminPaths.passkey(user: ":id", id: ":credential"))) { request, context in
            try await acting(request, context) { key in
                try await admin.removePasskey(
                    context.parameters.get("credential") ?? "", of: context.parameters.get("id") ?? "",
                    force: request.uri.queryParameters["force"] == "true", by: key)
                return Response.noContent
            }
        }
        routes.delete(RouterPath(AdminPaths.sessions(user: ":id"))) { request, context in
            try await acting(request, context) { key in
                try Response.json(try await admin.endSessions(of: context.parameters.get("id") ?? "", by: key))
            }
        }
        routes.post(RouterPath(AdminPaths.recoveryLink(user: ":id"))) { request, context in
            try await acting(request, context) { key in
                let body = try await request.decodeJSONIfPresent(AdminRecoveryLinkRequest.self, context: context)
                return try Response.json(
                    try await admin.recoveryLink(for: context.parameters.get("id") ?? "", body, by: key),
                    status: .created)
            }
        }
        routes.get(RouterPath(AdminPaths.audit)) { request, _ in
            _ = try keys.authorize(request)
            let query = request.uri.queryParameters
            return try Response.json(
                try await admin.auditEvents(
                    user: query["user"].map(String.init), since: query["since"].map(String.init),
                    until: query["until"].map(String.init), before: query["before"].map(String.init),
                    limit: query["limit"].map(String.init)))
        }
        routes.get(RouterPath(AdminPaths.webhooks)) { request, _ in
            _ = try keys.authorize(request)
            return try Response.json(try await admin.webhooks())
        }
        routes.get(RouterPath(AdminPaths.metrics)) { request, _ in
            _ = try keys.authorize(request)
            return metrics.response()
        }
    }

    /// Runs a change an operator makes: authorized by an admin key, and recorded in the audit log with the key's name
    /// as the actor.
    private func acting(
        _ request: Request, _ context: ServerRequestContext, _ body: (String) async throws -> Response
    ) async throws -> Response {
        let key = try keys.authorize(request)
        let source = AuditSource(
            request, peer: context.remoteAddress, clients: ClientAddressResolver(trustedProxies: []),
            actor: "admin:\(key)")
        return try await AuditLog.$source.withValue(source) { try await body(key) }
    }
}
