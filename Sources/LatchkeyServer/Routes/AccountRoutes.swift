import Hummingbird
import LatchkeyAPI

/// `DELETE /v1/account`: deletes the signed-in account with its passkeys, sessions, pending ceremonies and Apple links.
///
/// The account's Sign in with Apple authorizations are revoked at Apple first (App Store guideline 5.1.1(v)); if
/// Apple cannot be reached the answer is 502 `apple.revokeFailed` and the account is kept, so the user can retry.
struct AccountRoutes: Sendable {
    let sessions: SessionAuthenticator
    let apple: AppleSignInService?

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.delete(RouterPath(APIPaths.Native.account)) { request, _ in
            let caller = try await sessions.require(request)
            try await apple?.revokeAuthorizations(ofUser: caller.user.id)
            try await sessions.store.deleteUser(id: caller.user.id)
            return sessions.cookies.signedOutResponse()
        }
    }
}
