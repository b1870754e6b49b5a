import Hummingbird
import LatchkeyAPI

/// The session: `GET /v1/me` (who is signed in, with the account's ways in), `POST /v1/session/logout` (end
/// this session) and `DELETE /v1/sessions` (end all the account's sessions: sign out everywhere; the answer lists the
/// ways in that remain, ``SignedOutEverywhereResponse``).
struct SessionRoutes: Sendable {
    let sessions: SessionAuthenticator
    let accounts: AccountService

    func add(to routes: RouterGroup<ServerRequestContext>) {
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
        routes.delete(RouterPath(APIPaths.Native.sessions)) { request, _ in
            let remaining = try await accounts.signOutEverywhere(try await sessions.require(request))
            var response = try Response.json(SignedOutEverywhereResponse(remainingSignInMethods: remaining))
            sessions.cookies.expireSession(in: &response)
            return response
        }
    }
}
