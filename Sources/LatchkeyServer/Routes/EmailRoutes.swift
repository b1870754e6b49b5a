import Hummingbird
import LatchkeyAPI

/// The account's email addresses (``EmailService``; 404 `email.disabled` without `--smtp-url`): `GET /v1/me/emails`,
/// `POST /v1/me/emails` (add one, after a recent re-authentication; a code is sent to it), `POST /v1/me/emails/verify`,
/// `POST /v1/me/emails/primary` and `POST /v1/me/emails/remove` (both re-authenticated); and `POST /v1/recovery/email`
/// (a recovery code to a verified address; 202 whatever the address).
struct EmailRoutes: Sendable {
    let emails: EmailService
    let sessions: SessionAuthenticator
    let reauthentication: Reauthentication

    func add(to routes: RouterGroup<ServerRequestContext>, ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(APIPaths.Native.emails)) { request, _ in
            try Response.json(try await emails.list(of: try await sessions.require(request)))
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.emails)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSON(EmailRequest.self, context: context)
            try await reauthentication.require(caller)
            return try Response.json(try await emails.add(body.address, to: caller), status: .accepted)
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.emailVerify)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSON(EmailVerifyRequest.self, context: context)
            return try Response.json(try await emails.verify(body.address, code: body.code, of: caller))
        }
        routes.post(RouterPath(APIPaths.Native.emailPrimary)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSON(EmailRequest.self, context: context)
            try await reauthentication.require(caller)
            return try Response.json(try await emails.makePrimary(body.address, of: caller))
        }
        routes.post(RouterPath(APIPaths.Native.emailRemove)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSON(EmailRequest.self, context: context)
            try await reauthentication.require(caller)
            try await emails.remove(body.address, of: caller)
            return Response.noContent
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.recoveryEmail)) { request, context in
            let body = try await request.decodeJSON(RecoveryEmailRequest.self, context: context)
            try await emails.sendRecoveryCode(to: body.email)
            return try Response.json([String: String](), status: .accepted)
        }
    }
}
