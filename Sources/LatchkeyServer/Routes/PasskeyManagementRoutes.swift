import Foundation
import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// The signed-in user's passkeys under `/v1/me/passkeys`: list, rename, delete, and add another.
///
/// Deleting is the server forgetting the credential. The last way to sign in cannot be deleted (409
/// `passkey.lastCredential`): a passkey goes only while another passkey or a Sign in with Apple link remains;
/// delete the account instead.
struct PasskeyManagementRoutes: Sendable {
    static let maximumLabelLength = 64

    let ceremonies: CeremonyService
    let sessions: SessionAuthenticator
    let names: AuthenticatorNaming

    func add(to routes: RouterGroup<ServerRequestContext>, ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        routes.get(RouterPath(APIPaths.Native.passkeys)) { request, _ in
            let caller = try await sessions.require(request)
            let credentials = try await ceremonies.store.credentials(ofUser: caller.user.id)
            var passkeys: [PasskeySummary] = []
            for credential in credentials {
                passkeys.append(await names.summary(of: credential))
            }
            return try Response.json(
                PasskeyList(
                    passkeys: passkeys,
                    signals: try await ceremonies.signals(for: caller.user, credentials: credentials)
                ))
        }
        routes.patch(RouterPath(APIPaths.Native.passkeys + "/:id")) { request, context in
            let caller = try await sessions.require(request)
            let id = try Self.credentialID(context)
            let body = try await request.decodeJSON(RenamePasskeyRequest.self, context: context)
            let label = try Self.validatedLabel(body.name)
            try await Self.passkeyMustExist { () async throws(StoreError) in
                try await ceremonies.store.renameCredential(id: id, ofUser: caller.user.id, to: label)
            }
            guard let renamed = try await ceremonies.store.credential(id: id) else { throw Self.passkeyNotFound }
            var summary = await names.summary(of: renamed)
            summary.signals = try await ceremonies.signals(for: caller.user)
            return try Response.json(summary)
        }
        routes.delete(RouterPath(APIPaths.Native.passkeys + "/:id")) { request, context in
            let caller = try await sessions.require(request)
            let id = try Self.credentialID(context)
            do throws(StoreError) {
                try await ceremonies.store.deleteCredential(
                    id: id, ofUser: caller.user.id, keepingAnotherWayIn: true, sparingSession: caller.session.tokenHash
                )
            } catch {
                switch error.code {
                case .notFound: throw Self.passkeyNotFound
                case .conflict:
                    throw APIError(
                        .conflict, code: "passkey.lastCredential",
                        message:
                            "this is the account's last passkey and its only way to sign in; delete the account instead (DELETE \(APIPaths.Native.account))"
                    )
                default: throw error
                }
            }
            return try Response.json(PasskeyRemoval(signals: try await ceremonies.signals(for: caller.user)))
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.addPasskeyOptions)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeJSONIfPresent(AddPasskeyOptionsRequest.self, context: context)
            var preferences = RegistrationPreferences(label: try Self.validatedLabel(body?.name))
            switch body?.mediation {
            case nil: break
            case "conditional": preferences.conditional = true
            default:
                throw APIError.badRequest("passkey.invalidMediation", "mediation must be \"conditional\" or absent")
            }
            let (ticket, options) = try await ceremonies.beginRegistration(
                for: .existingUser(caller.user), preferences: preferences)
            return try Response.json(RegistrationOptionsResponse(ticket: ticket, options: options))
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Native.addPasskeyVerify)) { request, context in
            let caller = try await sessions.require(request)
            let body = try await request.decodeVerifyRequest(context: context) { bytes throws(WebAuthnError) in
                try RegistrationCredential.parse(bytes)
            }
            let outcome = try await ceremonies.finishRegistration(
                ticket: body.ticket, credential: body.credential, caller: { caller }, requirePurpose: .addPasskey
            )
            return try Response.json(await names.summary(of: outcome.credential), status: .created)
        }
    }

    static let passkeyNotFound = APIError(
        .notFound, code: "passkey.notFound", message: "the signed-in account has no such passkey")

    /// Runs a change of one of the caller's credentials; the store's `notFound` becomes 404 `passkey.notFound`.
    private static func passkeyMustExist(_ change: () async throws(StoreError) -> Void) async throws {
        do {
            try await change()
        } catch {
            if error.code == .notFound { throw passkeyNotFound }
            throw error
        }
    }

    /// The credential id from the path (base64url); 404 when it cannot be one.
    private static func credentialID(_ context: ServerRequestContext) throws -> Data {
        guard let text = context.parameters.get("id"), let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw passkeyNotFound
        }
        return Data(bytes)
    }

    /// A label trimmed, nil when empty; 400 `passkey.invalidName` when too long or with control characters.
    static func validatedLabel(_ name: String?) throws -> String? {
        guard let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        guard PrintableText.isValid(name, maximumLength: maximumLabelLength) else {
            throw APIError.badRequest(
                "passkey.invalidName", "a passkey name must be at most \(maximumLabelLength) printable characters")
        }
        return name
    }
}
