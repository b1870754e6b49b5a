import Foundation
import HTTPTypes
import Hummingbird

/// The cookies the server sets: the session (`latchkey_session`, `__Host-latchkey_session` on https) for the web,
/// and the pending conformance ceremony (`latchkey_ceremony`). Both are HttpOnly, SameSite=Lax, path `/`, and
/// Secure when the site is https.
///
/// On https the session cookie carries the `__Host-` prefix: browsers then accept it only when Secure, with path
/// `/` and no Domain, from the host itself, so a sibling subdomain or a plain-http page cannot plant one.
struct SessionCookies: Sendable {
    static let ceremonyName = "latchkey_ceremony"
    /// The session cookie's name on plain http (development on loopback).
    static let plainSessionName = "latchkey_session"

    let secure: Bool

    /// The session cookie's name: `__Host-latchkey_session` on https, `latchkey_session` otherwise.
    var sessionName: String { secure ? "__Host-" + Self.plainSessionName : Self.plainSessionName }

    /// The session cookie values `request` carries, in order. More than one means a planted cookie beside the real
    /// one (browsers send every cookie that matches), which the server refuses rather than guessing.
    func sessionValues(in request: Request) -> [Substring] {
        request.cookieValues(named: sessionName)
    }

    func session(_ token: SessionToken, expiresAt: Date) -> Cookie {
        cookie(sessionName, value: token.text, maxAge: max(0, Int(expiresAt.timeIntervalSinceNow)))
    }

    func ceremony(ticket: String, lifetime: Duration) -> Cookie {
        cookie(Self.ceremonyName, value: ticket, maxAge: Int(lifetime.components.seconds))
    }

    /// A cookie that makes the browser forget `name`.
    func expired(_ name: String) -> Cookie {
        cookie(name, value: "", maxAge: 0)
    }

    /// 204 No Content that clears the session cookie (after logout or account deletion).
    func signedOutResponse() -> Response {
        var response = Response(status: .noContent)
        expireSession(in: &response)
        return response
    }

    /// Clears the session cookie in `response`.
    func expireSession(in response: inout Response) {
        response.setCookie(expired(sessionName))
    }

    private func cookie(_ name: String, value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
