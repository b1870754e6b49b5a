import Hummingbird
import LatchkeyAPI
import WebAuthn

/// Recovery codes and recovery (``RecoveryService``): `GET /v1/me/recovery-codes` (how many are left),
/// `POST /v1/me/recovery-codes` (a new set, after a recent re-authentication), `POST /v1/recovery/options` (a code opens a
/// registration ceremony for the account's new passkey) and `POST /v1/recovery/verify` (the passkey is added and the user
/// signed in).
struct RecoveryRoutes: Sendable {
    let recovery: RecoveryService
    let ceremonies: CeremonyService
    let sessions: SessionAuthenticator
    let reauthentication: Reauthentication

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
            switch (body.username, body.code, body.token) {
            case (let username?, let code?, nil):
                return try Response.json(try await recovery.beginRecovery(username: username, code: code))
            case (nil, nil, let token?):
                return try Response.json(try await recovery.beginRecovery(token: token))
            default:
                throw ServiceError(
                    .requestInvalidField, "send either 'username' and 'code', or the recovery link's 'token'")
            }
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.recoveryVerify)) { request, context in
            let body = try await request.decodeVerifyRequest(context: context) { bytes throws(WebAuthnError) in
                try RegistrationCredential.parse(bytes)
            }
            let outcome = try await ceremonies.finishRegistration(
                ticket: body.ticket, credential: body.credential, caller: { nil }, requirePurpose: .recover,
                client: sessions.client(of: request, context: context))
            return try await sessions.signedInResponse(outcome, ceremonies: ceremonies, status: .created)
        }
    }
}
