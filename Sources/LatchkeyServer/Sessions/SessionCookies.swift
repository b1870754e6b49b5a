import Foundation
import Hummingbird

/// The cookies the server sets: the session (`latchkey_session`) for the web, and the pending conformance
/// ceremony (`latchkey_ceremony`). Both are HttpOnly, SameSite=Lax, path `/`, and Secure when the site is https.
struct SessionCookies: Sendable {
    static let sessionName = "latchkey_session"
    static let ceremonyName = "latchkey_ceremony"

    let secure: Bool

    func session(_ token: SessionToken, expiresAt: Date) -> Cookie {
        cookie(Self.sessionName, value: token.text, maxAge: max(0, Int(expiresAt.timeIntervalSinceNow)))
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
        response.setCookie(expired(Self.sessionName))
        return response
    }

    private func cookie(_ name: String, value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
