import Hummingbird
import LatchkeyAPI

/// The session: `GET /v1/me` (who is signed in) and `POST /v1/session/logout` (end this session).
struct SessionRoutes: Sendable {
    let sessions: SessionAuthenticator

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(APIPaths.Native.me)) { request, _ in
            try Response.json(try await sessions.require(request).user.profile)
        }
        routes.post(RouterPath(APIPaths.Native.logout)) { request, _ in
            let caller = try await sessions.require(request)
            try await sessions.store.deleteSession(tokenHash: caller.session.tokenHash)
            return sessions.cookies.signedOutResponse()
        }
    }
}
