import Hummingbird
import LatchkeyAPI
import WebAuthn

/// The session and the account's devices: `GET /v1/me` (who is signed in, with the account's ways in),
/// `POST /v1/session/logout` (end this session), `GET /v1/sessions` (the account's live sessions),
/// `DELETE /v1/sessions/{id}` (end one), `DELETE /v1/sessions` (sign out everywhere, after a recent re-authentication;
/// the answer lists the ways in that remain, ``SignedOutEverywhereResponse``) and `POST /v1/session/reauthenticate`
/// (re-authentication with a passkey: a new verified session replaces this one).
struct SessionRoutes: Sendable {
    let sessions: SessionAuthenticator
    let accounts: AccountService
    let reauthentication: Reauthentication
    let ceremonies: CeremonyService
    /// Tells the account's primary address when it is signed out everywhere.
    let notices: Mailer?

    func add(to routes: RouterGroup<ServerRequestContext>, ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(APIPaths.Native.me)) { request, _ in
            let caller = try await sessions.require(request)
            var profile = caller.user.profile
            profile.signInMethods = try await accounts.signInMethods(of: caller.user.id)
            return try Response.json(profile)
        }
        routes.post(RouterPath(APIPaths.Native.logout)) { request, _ in
            try await accounts.signOut(try await sessions.require(request))
            return sessions.cookies.signedOutResponse()
        }
        routes.get(RouterPath(APIPaths.Native.sessions)) { request, _ in
            try Response.json(try await accounts.sessions(of: try await sessions.require(request)))
        }
        routes.delete(RouterPath(APIPaths.Native.sessions + "/:id")) { request, context in
            let caller = try await sessions.require(request)
            let wasCurrent = try await accounts.endSession(id: context.parameters.get("id") ?? "", of: caller)
            return wasCurrent ? sessions.cookies.signedOutResponse() : Response.noContent
        }
        routes.delete(RouterPath(APIPaths.Native.sessions)) { request, _ in
            let caller = try await sessions.require(request)
            try await reauthentication.require(caller)
            let remaining = try await accounts.signOutEverywhere(caller)
            notices?.notify(.signedOutEverywhere, user: caller.user.id)
            var response = try Response.json(SignedOutEverywhereResponse(remainingSignInMethods: remaining))
            sessions.cookies.expireSession(in: &response)
            return response
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.reauthenticate)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeVerifyRequest(context: context, parse: AuthenticationCredential.parse)
            let outcome = try await reauthentication.reauthenticate(
                caller, ticket: body.ticket, credential: body.credential,
                client: sessions.client(of: request, context: context))
            return try await sessions.signedInResponse(outcome, ceremonies: ceremonies, status: .ok)
        }
    }
}
