import Foundation
import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import NIOCore
import WebAuthn

/// The FIDO Alliance conformance profile: `POST /attestation/options`, `/attestation/result`,
/// `/assertion/options`, `/assertion/result`.
///
/// The options response sets the `latchkey_ceremony` cookie (HttpOnly, single use, expiring) to the ceremony's
/// ticket, its state sealed by ``CeremonyTickets``, and the result request brings it back. A successful result signs the user in with the
/// session cookie. Failures are 4xx `{"status":"failed","errorMessage":"…"}`: the routes are added to a group with
/// ``ErrorResponseMiddleware`` in its ``ErrorResponseMiddleware/Format/conformance`` format.
///
/// Registering for a name that is taken needs that account's session: the profile has no other proof that the
/// caller owns the account.
struct ConformanceRoutes: Sendable {
    let ceremonies: CeremonyService
    let sessions: SessionAuthenticator
    let reauthentication: Reauthentication

    func add(to routes: RouterGroup<ServerRequestContext>) {
        routes.post(RouterPath(APIPaths.Conformance.attestationOptions), use: attestationOptions)
        routes.post(RouterPath(APIPaths.Conformance.attestationResult), use: attestationResult)
        routes.post(RouterPath(APIPaths.Conformance.assertionOptions), use: assertionOptions)
        routes.post(RouterPath(APIPaths.Conformance.assertionResult), use: assertionResult)
    }

    private func attestationOptions(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(ServerCreationOptionsRequest.self, context: context)
        let (name, displayName) = try UserNames.validated(name: body.username, displayName: body.displayName)
        let subject = try await ceremonies.registrationSubject(
            name: name, displayName: displayName,
            // Adding a passkey to the caller's account needs a recently verified session; any other answers as a taken
            // name does (this profile has no re-authentication of its own).
            caller: { try await sessions.signedIn(request).flatMap { reauthentication.isRecent($0) ? $0 : nil } })
        let preferences = RegistrationPreferences(
            authenticatorSelection: body.authenticatorSelection ?? AuthenticatorSelectionCriteria(),
            attestation: body.attestation, extensions: body.extensions
        )
        let begun = try await ceremonies.beginRegistration(for: subject, preferences: preferences)
        return try pending(Response.json(ServerCreationOptionsResponse(options: begun.options)), ticket: begun.ticket)
    }

    private func attestationResult(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await request.bodyBytes(context: context)
        let ticket = try ceremonyTicket(request)
        let credential = try RegistrationCredential.parse(Array(buffer: body))
        let outcome = try await ceremonies.finishRegistration(
            ticket: ticket, credential: credential, caller: { try await sessions.signedIn(request) },
            client: sessions.client(of: request, context: context))
        return try success(outcome)
    }

    private func assertionOptions(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await request.decodeJSONIfPresent(ServerRequestOptionsRequest.self, context: context)
        let begun = try await ceremonies.beginAuthentication(
            username: body?.username, userVerification: body?.userVerification, extensions: body?.extensions
        )
        return try pending(Response.json(ServerRequestOptionsResponse(options: begun.options)), ticket: begun.ticket)
    }

    private func assertionResult(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await request.bodyBytes(context: context)
        let ticket = try ceremonyTicket(request)
        let credential = try AuthenticationCredential.parse(Array(buffer: body))
        return try success(
            try await ceremonies.finishAuthentication(
                ticket: ticket, credential: credential, client: sessions.client(of: request, context: context)))
    }

    /// The options `response`, setting the ceremony cookie.
    private func pending(_ response: Response, ticket: String) -> Response {
        var response = response
        response.setCookie(sessions.cookies.ceremony(ticket: ticket, lifetime: ceremonies.ceremonyLifetime))
        return response
    }

    /// The ticket from the ceremony cookie; 400 `ceremony.cookieMissing` without it.
    private func ceremonyTicket(_ request: Request) throws -> String {
        guard let ticket = request.cookie(named: SessionCookies.ceremonyName), !ticket.isEmpty else {
            throw ServiceError(
                .ceremonyCookieMissing,
                "no pending ceremony: call the options endpoint first and send its cookie back")
        }
        return String(ticket)
    }

    /// `{"status":"ok","errorMessage":""}`, clearing the ceremony cookie and, when a session was issued, setting it.
    private func success(_ outcome: CeremonyOutcome) throws -> Response {
        var response = try Response.json(ServerResponse.ok)
        response.setCookie(sessions.cookies.expired(SessionCookies.ceremonyName))
        if let session = outcome.session, let token = outcome.token {
            response.setCookie(sessions.cookies.session(token, expiresAt: session.expiresAt))
        }
        return response
    }
}
