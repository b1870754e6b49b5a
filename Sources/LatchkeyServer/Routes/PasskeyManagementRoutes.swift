import Foundation
import Hummingbird
import LatchkeyAPI
import WebAuthn

/// The signed-in user's passkeys under `/v1/me/passkeys`: list, rename, delete (``PasskeyService``), and add another
/// (a registration ceremony, ``CeremonyService``).
struct PasskeyManagementRoutes: Sendable {
    let passkeys: PasskeyService
    let ceremonies: CeremonyService
    let sessions: SessionAuthenticator
    let reauthentication: Reauthentication
    /// Tells the account's primary address when a passkey is added or removed.
    let notices: Mailer?

    func add(to routes: RouterGroup<ServerRequestContext>, ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(APIPaths.Native.passkeys)) { request, _ in
            try Response.json(try await passkeys.list(for: try await sessions.require(request)))
        }
        routes.patch(RouterPath(APIPaths.Native.passkeys + "/:id")) { request, context in
            let caller = try await sessions.require(request)
            let id = try Self.credentialID(context)
            let body = try await request.decodeJSON(RenamePasskeyRequest.self, context: context)
            return try Response.json(try await passkeys.rename(id, of: caller, to: body.name))
        }
        routes.delete(RouterPath(APIPaths.Native.passkeys + "/:id")) { request, context in
            let caller = try await sessions.require(request)
            let id = try Self.credentialID(context)
            try await reauthentication.require(caller)
            let removal = try await passkeys.remove(id, of: caller)
            notices?.notify(
                .passkeyRemoved, detail: "ID " + (context.parameters.get("id") ?? "").prefix(12) + "…",
                user: caller.user.id)
            return try Response.json(removal)
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.addPasskeyOptions)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSONIfPresent(AddPasskeyOptionsRequest.self, context: context)
            try await reauthentication.require(caller)
            var preferences = RegistrationPreferences(label: try PasskeyService.validatedLabel(body?.name))
            switch body?.mediation {
            case nil: break
            case "conditional": preferences.conditional = true
            default:
                throw ServiceError(.passkeyInvalidMediation, "mediation must be \"conditional\" or absent")
            }
            return try Response.json(
                try await ceremonies.beginRegistration(for: .existingUser(caller.user), preferences: preferences))
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.addPasskeyVerify)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeVerifyRequest(context: context, parse: RegistrationCredential.parse)
            let outcome = try await ceremonies.finishRegistration(
                ticket: body.ticket, credential: body.credential, caller: { caller }, requirePurpose: .addPasskey,
                client: sessions.client(of: request, context: context)
            )
            let summary = await passkeys.names.summary(of: outcome.credential)
            notices?.notify(
                .passkeyAdded, detail: summary.name ?? summary.authenticatorName ?? "ID " + summary.id.prefix(12) + "…",
                user: caller.user.id)
            return try Response.json(summary, status: .created)
        }
    }

    /// The credential id from the path (base64url); 404 when it cannot be one.
    private static func credentialID(_ context: ServerRequestContext) throws -> Data {
        guard let text = context.parameters.get("id"), let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw PasskeyService.notFound
        }
        return Data(bytes)
    }
}
