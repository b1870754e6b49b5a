import AppleSignIn
import Foundation
import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import NIOCore

/// Sign in with Apple under `/v1/apple`: the app sign-in, Apple's server-to-server notifications, and the web flow
/// (authorize redirect and form-post callback). Without an Apple configuration every route answers 404 `apple.disabled`.
struct AppleRoutes: Sendable {
    let apple: AppleSignInService?
    let sessions: SessionAuthenticator

    func add(to routes: RouterGroup<ServerRequestContext>, ceremonyRoutes: RouterGroup<ServerRequestContext>) {
        ceremonyRoutes.post(RouterPath(APIPaths.Apple.nonce)) { _, _ in
            let nonce = try await enabled().issueNonce()
            return try Response.json(AppleNonceResponse(nonce: nonce.nonce, expiresAt: nonce.expiresAt))
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Apple.signIn)) { request, context in
            let apple = try enabled()
            let body = try await request.decodeJSON(AppleSignInRequest.self, context: context)
            let caller = try await sessions.signedIn(request)
            let outcome = try await apple.signIn(
                .init(
                    identityToken: body.identityToken, rawNonce: body.rawNonce ?? "",
                    authorizationCode: body.authorizationCode,
                    givenName: body.fullName?.givenName, familyName: body.fullName?.familyName, email: body.email,
                    linkingUserID: caller?.user.id, client: sessions.client(of: request, context: context),
                    expectedClientID: body.clientId
                ))
            return try await sessions.signedInResponse(
                user: outcome.user, session: outcome.session, token: outcome.token, methods: ["apple"],
                status: outcome.createdUser ? .created : .ok
            )
        }
        routes.post(RouterPath(APIPaths.Apple.notifications)) { request, context in
            let apple = try enabled()
            // The verifier reads Apple's `{"payload": "<JWS>"}` envelope itself: one path for the server and its tests.
            try await apple.handleNotification(body: Array(buffer: try await request.bodyBytes(context: context)))
            return Response(status: .ok)
        }
        ceremonyRoutes.get(RouterPath(APIPaths.Apple.authorize)) { request, _ in
            let apple = try enabled()
            guard let web = apple.configuration.web else { throw ServiceError.appleWebFlowDisabled }
            // Another site must not start a flow that links its Apple ID to this browser's account (login CSRF).
            guard request.headers[.secFetchSite]?.lowercased() != "cross-site" else { throw APIError.crossOrigin }
            // A signed-in browser links the Apple ID to its account; a stale session just signs in.
            let caller = try? await sessions.signedIn(request)
            let (state, location) = try await apple.beginWebFlow(web, linking: caller?.user.id)
            var response = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
            if sessions.cookies.secure { response.setCookie(AppleWebFlow.bindingCookie(state: state.state)) }
            return response
        }
        ceremonyRoutes.post(RouterPath(APIPaths.Apple.callback)) { request, context in
            let apple = try enabled()
            guard apple.configuration.web != nil else { throw ServiceError.appleWebFlowDisabled }
            let callback = try AppleWebFlow.Callback(
                fields: try await AppleWebFlow.formFields(request, context: context))
            if sessions.cookies.secure { try AppleWebFlow.checkBinding(request, state: callback.state) }
            let state = try await apple.consumeWebState(callback.state)
            if let error = callback.error {
                let code = error.filter { $0.isASCII && ($0.isLetter || $0 == "_") }.prefix(64)
                return redirect(to: "/?apple_error=\(code)")
            }
            guard let idToken = callback.idToken, let code = callback.code else {
                throw ServiceError(.appleCallbackIncomplete, "Apple's callback carries no code or id_token")
            }
            let outcome = try await apple.signIn(
                .init(
                    identityToken: idToken, rawNonce: state.rawNonce, authorizationCode: code,
                    givenName: callback.givenName, familyName: callback.familyName, email: callback.email,
                    linkingUserID: state.userID, client: sessions.client(of: request, context: context),
                    requireWebClient: true, requireIssuedNonce: false
                ))
            var response = redirect(to: "/")
            response.setCookie(sessions.cookies.session(outcome.token, expiresAt: outcome.session.expiresAt))
            return response
        }
    }

    /// 303 See Other to the web page after the callback, forgetting the flow's binding cookie.
    private func redirect(to location: String) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if sessions.cookies.secure { response.setCookie(AppleWebFlow.bindingCookie(state: nil)) }
        return response
    }

    private func enabled() throws -> AppleSignInService {
        guard let apple else { throw ServiceError.appleDisabled }
        return apple
    }
}
