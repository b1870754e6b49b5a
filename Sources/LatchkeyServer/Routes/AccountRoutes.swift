import Hummingbird
import LatchkeyAPI

/// `DELETE /v1/account`: deletes the signed-in account with its passkeys, sessions and pending ceremonies.
struct AccountRoutes: Sendable {
    let sessions: SessionAuthenticator

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.delete(RouterPath(APIPaths.Native.account)) { request, _ in
            let caller = try await sessions.require(request)
            try await sessions.store.deleteUser(id: caller.user.id)
            return sessions.cookies.signedOutResponse()
        }
    }
}
