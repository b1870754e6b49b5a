import Hummingbird
import LatchkeyAPI

/// `DELETE /v1/account` (after a recent re-authentication): deletes the signed-in account with its passkeys, sessions, pending ceremonies and Apple links
/// (``AccountService/delete(userID:)``, which revokes its Apple authorizations first).
struct AccountRoutes: Sendable {
    let accounts: AccountService
    let sessions: SessionAuthenticator
    let reauthentication: Reauthentication

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.delete(RouterPath(APIPaths.Native.account)) { request, _ in
            let caller = try await sessions.require(request)
            try await reauthentication.require(caller)
            try await accounts.delete(userID: caller.user.id)
            return sessions.cookies.signedOutResponse()
        }
    }
}
