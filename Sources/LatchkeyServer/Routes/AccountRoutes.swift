import Hummingbird
import LatchkeyAPI

/// `DELETE /v1/account`: deletes the signed-in account with its passkeys, sessions, pending ceremonies and Apple links
/// (``AccountService/delete(_:)``, which revokes its Apple authorizations first).
struct AccountRoutes: Sendable {
    let accounts: AccountService
    let sessions: SessionAuthenticator

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.delete(RouterPath(APIPaths.Native.account)) { request, _ in
            try await accounts.delete(try await sessions.require(request))
            return sessions.cookies.signedOutResponse()
        }
    }
}
