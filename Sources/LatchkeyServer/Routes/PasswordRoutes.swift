import Hummingbird
import LatchkeyAPI

/// Password accounts under `/v1/password` (404 `password.disabled` when `--password-sign-in off`):
/// `POST /v1/password/register` and `POST /v1/password/signin` answer a ``SessionResponse`` (with `passkeyUpgrade`
/// while the account has no passkey); `PUT /v1/password` sets or changes the signed-in account's password and
/// `DELETE /v1/password` removes it while another way in remains (both after a recent re-authentication);
/// `POST /v1/session/reauthenticate/password` re-authenticates with it. All are rate-limited per client address, and
/// password checks are throttled per account name in the store (429 `password.throttled`).
struct PasswordRoutes: Sendable {
    let passwords: PasswordService
    let sessions: SessionAuthenticator
    let reauthentication: Reauthentication
    /// Tells the account's primary address when the password is set, changed or removed.
    let notices: Mailer?

    func add(to ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        ceremonyRoutes.post(RouterPath(APIPaths.Native.passwordRegister)) { request, context in
            try passwords.requireEnabled()
            return try await passwords.register(
                try await request.decodeJSON(PasswordRegisterRequest.self, context: context),
                client: sessions.client(of: request, context: context), while: context.clientIsConnected)
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.passwordSignIn)) { request, context in
            try passwords.requireEnabled()
            return try await passwords.signIn(
                try await request.decodeJSON(PasswordSignInRequest.self, context: context),
                client: sessions.client(of: request, context: context), while: context.clientIsConnected)
        }
        ceremonyRoutes.put(RouterPath(APIPaths.Native.password)) { request, context in
            try passwords.requireEnabled()
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSON(SetPasswordRequest.self, context: context)
            try await reauthentication.require(caller)
            try await passwords.setPassword(body, caller: caller, while: context.clientIsConnected)
            notices?.notify(.passwordChanged, detail: "set or changed", user: caller.user.id)
            return Response.noContent
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.reauthenticatePassword)) { request, context in
            try passwords.requireEnabled()
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSON(ReauthenticatePasswordRequest.self, context: context)
            return try await passwords.reauthenticate(
                caller, password: body.password, client: sessions.client(of: request, context: context),
                while: context.clientIsConnected)
        }
        ceremonyRoutes.delete(RouterPath(APIPaths.Native.password)) { request, _ in
            try passwords.requireEnabled()
            let caller = try await sessions.require(request)
            try await reauthentication.require(caller)
            try await passwords.removePassword(caller: caller)
            notices?.notify(.passwordChanged, detail: "removed", user: caller.user.id)
            return Response.noContent
        }
    }
}
