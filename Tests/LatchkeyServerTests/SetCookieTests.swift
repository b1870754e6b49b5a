import HTTPTypes
import Hummingbird
import Testing

@testable import LatchkeyServer

/// `SessionCookies.SetCookie`: the server's `Set-Cookie` fields, written without Hummingbird's `Cookie`.
@Suite("Set-Cookie fields")
struct SetCookieTests {
    /// The cookie's `name=value` and its attributes as a set (Hummingbird's `Cookie` writes them in its table's hash order).
    private static func parts(_ field: String) -> (pair: Substring, attributes: Set<Substring>) {
        let parts = field.split(separator: "; ", omittingEmptySubsequences: false)
        return (parts[0], Set(parts.dropFirst()))
    }

    @Test("each cookie has the attributes Hummingbird's Cookie writes for the same settings", arguments: [false, true])
    func sameTextAsHummingbird(secure: Bool) {
        let cookies = SessionCookies(secure: secure)
        let cases: [(SessionCookies.SetCookie, name: String, value: String, maxAge: Int)] = [
            (
                cookies.ceremony(ticket: "AQID-ticket_text", lifetime: .seconds(300)), SessionCookies.ceremonyName,
                "AQID-ticket_text", 300
            ),
            (cookies.expired(cookies.sessionName), cookies.sessionName, "", 0),
        ]
        for (cookie, name, value, maxAge) in cases {
            let hummingbird = Cookie(
                name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
            let ours = Self.parts(cookie.field)
            let theirs = Self.parts(hummingbird.description)
            #expect(
                ours.pair == theirs.pair && ours.attributes == theirs.attributes,
                "\(cookie.field) against \(hummingbird.description)")
        }
    }

    @Test("a response gets one more Set-Cookie field for each cookie, the others kept")
    func appendsAField() {
        let cookies = SessionCookies(secure: true)
        var response = Response(status: .ok)
        response.setCookie(cookies.ceremony(ticket: "t", lifetime: .seconds(60)))
        response.setCookie(cookies.expired(cookies.sessionName))
        #expect(
            response.headers[values: .setCookie] == [
                "latchkey_ceremony=t; Max-Age=60; Path=/; Secure; HttpOnly; SameSite=Lax",
                "__Host-latchkey_session=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Lax",
            ])
    }
}
