import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import LatchkeyAPI
import NIOCore

/// The Sign in with Apple web flow: the authorize redirect with its server-side `state`, and the form Apple posts back.
///
/// Apple posts the callback cross-site (`response_mode=form_post`), so a SameSite=Lax cookie would not come with it:
/// the flow rests on the `state` record instead, single-use and expiring, which also holds the raw nonce. On an https
/// site the state is also bound to the browser that started the flow, by a `SameSite=None; Secure` cookie sent only to
/// the callback, so a callback form fed to another browser (login CSRF) is refused.
enum AppleWebFlow {
    /// How long a user has on Apple's page.
    static let stateLifetime: TimeInterval = 600

    /// The cookie that binds a flow's state to the browser that started it.
    static let bindingCookieName = "latchkey_apple_state"

    /// The binding cookie for `state`: HttpOnly, Secure, SameSite=None (so Apple's cross-site post carries it), and
    /// sent only to the callback.
    /// With a nil state, the cookie that makes the browser forget the binding.
    static func bindingCookie(state: String?) -> Cookie {
        Cookie(
            name: bindingCookieName, value: state ?? "", maxAge: state == nil ? 0 : Int(stateLifetime),
            path: APIPaths.Apple.callback, secure: true, httpOnly: true, sameSite: .none)
    }

    /// Checks that the browser posting the callback started the flow: 400 `apple.stateNotBound` otherwise.
    static func checkBinding(_ request: Request, state: String) throws {
        // Digest equality in swift-crypto is constant-time.
        guard let cookie = request.cookie(named: bindingCookieName),
            SHA256.hash(data: Array(cookie.utf8)) == SHA256.hash(data: Array(state.utf8))
        else {
            throw ServiceError(
                .appleStateNotBound, "this Sign in with Apple flow was started in another browser; start again")
        }
    }

    /// Apple's authorize URL for a new flow, its query values strictly percent-encoded (spaces as `%20`).
    static func authorizeURL(endpoints: AppleEndpoints, web: AppleConfiguration.Web, state: String, rawNonce: String)
        -> String
    {
        let query = FormEncoding.encode(
            [
                ("response_type", "code id_token"),
                ("response_mode", "form_post"),
                ("client_id", web.servicesID.rawValue),
                ("redirect_uri", web.redirectURI),
                ("scope", "name email"),
                ("state", state),
                ("nonce", AppleNonce.hashed(rawNonce)),
            ], spaceAsPercent20: true)
        return endpoints.authorize + (endpoints.authorize.contains("?") ? "&" : "?") + query
    }

    /// The fields of the form Apple posts to the callback.
    struct Callback: Sendable {
        let state: String
        let code: String?
        let idToken: String?
        /// Apple's `error` (e.g. `user_cancelled_authorize`).
        let error: String?
        /// From the `user` JSON Apple sends on the first authorization only.
        let givenName: String?
        let familyName: String?
        let email: String?

        init(fields: [String: String]) throws {
            guard let state = fields["state"], !state.isEmpty else {
                throw ServiceError(.appleStateInvalid, "the callback carries no state")
            }
            self.state = state
            code = fields["code"]
            idToken = fields["id_token"]
            error = fields["error"]
            let user = fields["user"].flatMap { try? JSONDecoder().decode(User.self, from: Data($0.utf8)) }
            givenName = user?.name?.firstName
            familyName = user?.name?.lastName
            email = user?.email
        }

        private struct User: Decodable {
            struct Name: Decodable {
                var firstName: String?
                var lastName: String?
            }
            var name: Name?
            var email: String?
        }
    }

    /// The form body of the callback. Only this route reads form bodies: it is the one request a cross-site form is
    /// meant to send, and it proves itself with the single-use `state`, not with a cookie.
    static func formFields(_ request: Request, context: ServerRequestContext) async throws -> [String: String] {
        guard let contentType = request.headers[.contentType]?.lowercased(),
            contentType.hasPrefix("application/x-www-form-urlencoded")
        else {
            throw ServiceError(
                .requestUnsupportedMediaType,
                "Apple's callback is sent as application/x-www-form-urlencoded")
        }
        // BodyLimitMiddleware has collected the body within the configured limit.
        let buffer = try await request.body.collect(upTo: .max)
        return FormEncoding.decode(String(buffer: buffer))
    }
}
