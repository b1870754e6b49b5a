import Foundation
import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// The native ceremonies under `/v1/passkeys`: sign-up and sign-in, each as options (`{ticket, options}`) then
/// verify (`{ticket, credential}`), answering a ``SessionResponse`` and setting the session cookie.
struct PasskeyRoutes: Sendable {
    let ceremonies: CeremonyService
    let sessions: SessionAuthenticator

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.post(RouterPath(APIPaths.Native.registrationOptions)) { request, context in
            let body = try await request.decodeJSON(RegistrationOptionsRequest.self, context: context)
            let (name, displayName) = try UserNames.validated(name: body.username, displayName: body.displayName)
            try await ceremonies.requireAvailable(name)
            return try Response.json(
                try await ceremonies.beginRegistration(for: .newUser(name: name, displayName: displayName)))
        }
        routes.post(RouterPath(APIPaths.Native.registrationVerify)) { request, context in
            let body = try await request.decodeVerifyRequest(context: context, parse: RegistrationCredential.parse)
            let outcome = try await ceremonies.finishRegistration(
                ticket: body.ticket, credential: body.credential, caller: { nil }, requirePurpose: .signUp,
                client: sessions.client(of: request, context: context)
            )
            return try await sessions.signedInResponse(outcome, ceremonies: ceremonies, status: .created)
        }
        routes.post(RouterPath(APIPaths.Native.accountCreationOptions)) { _, _ in
            return try Response.json(try await ceremonies.beginRegistration(for: .unnamedUser))
        }
        routes.post(RouterPath(APIPaths.Native.accountCreationVerify)) { request, context in
            let (body, members) = try await request.decodeVerifyRequestAndMembers(
                context: context, parse: RegistrationCredential.parse)
            guard let username = members.string("username") else {
                throw ServiceError(
                    .requestMissingField, "the body needs 'username', the name the sign-up sheet collected")
            }
            let naming = try UserNames.validated(name: username, displayName: members.string("displayName"))
            let outcome = try await ceremonies.finishRegistration(
                ticket: body.ticket, credential: body.credential, caller: { nil }, requirePurpose: .signUp,
                naming: naming, client: sessions.client(of: request, context: context)
            )
            return try await sessions.signedInResponse(outcome, ceremonies: ceremonies, status: .created)
        }
        routes.post(RouterPath(APIPaths.Native.authenticationOptions)) { request, context in
            let body = try await request.decodeJSONIfPresent(AuthenticationOptionsRequest.self, context: context)
            return try Response.json(try await ceremonies.beginAuthentication(username: body?.username))
        }
        routes.post(RouterPath(APIPaths.Native.authenticationVerify)) { request, context in
            let body = try await request.decodeVerifyRequest(context: context, parse: AuthenticationCredential.parse)
            let outcome = try await ceremonies.finishAuthentication(
                ticket: body.ticket, credential: body.credential, client: sessions.client(of: request, context: context)
            )
            return try await sessions.signedInResponse(outcome, ceremonies: ceremonies, status: .ok)
        }
    }
}
