import Hummingbird
import LatchkeyAPI
import WebAuthn

/// Recovery codes and recovery (``RecoveryService``): `GET /v1/me/recovery-codes` (how many are left),
/// `POST /v1/me/recovery-codes` (a new set, after a recent re-authentication), `POST /v1/recovery/options` (a code opens a
/// registration ceremony for the account's new passkey; so does a code sent by email, `POST /v1/recovery/email`) and
/// `POST /v1/recovery/verify` (the passkey is added, the user signed in, and told by email).
struct RecoveryRoutes: Sendable {
    let recovery: RecoveryService
    let ceremonies: CeremonyService
    let sessions: SessionAuthenticator
    let reauthentication: Reauthentication
    /// Tells the account's primary address that it was recovered.
    let notices: Mailer?

    func add(to routes: RouterGroup<ServerRequestContext>, ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(APIPaths.Native.recoveryCodes)) { request, _ in
            try Response.json(try await recovery.status(of: try await sessions.require(request)))
        }
        routes.post(RouterPath(APIPaths.Native.recoveryCodes)) { request, _ in
            let caller = try await sessions.require(request)
            try await reauthentication.require(caller)
            return try Response.json(try await recovery.generateCodes(for: caller), status: .created)
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.recoveryOptions)) { request, context in
            let body = try await request.decodeJSON(RecoveryOptionsRequest.self, context: context)
            switch (body.username, body.email, body.code, body.token) {
            case (let username?, nil, let code?, nil):
                return try Response.json(try await recovery.beginRecovery(username: username, code: code))
            case (nil, let email?, let code?, nil):
                return try Response.json(try await recovery.beginRecovery(email: email, code: code))
            case (nil, nil, nil, let token?):
                return try Response.json(try await recovery.beginRecovery(token: token))
            default:
                throw ServiceError(
                    .requestInvalidField,
                    "send 'username' and 'code', 'email' and the code sent to it, or the recovery link's 'token'")
            }
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.recoveryVerify)) { request, context in
            let body = try await request.decodeVerifyRequest(context: context, parse: RegistrationCredential.parse)
            let outcome = try await ceremonies.finishRegistration(
                ticket: body.ticket, credential: body.credential, caller: { nil }, requirePurpose: .recover,
                client: sessions.client(of: request, context: context))
            notices?.notify(.recoveryUsed, user: outcome.credential.userID)
            return try await sessions.signedInResponse(outcome, ceremonies: ceremonies, status: .created)
        }
    }
}
