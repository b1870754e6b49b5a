import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import LatchkeyServer

/// `Request.cookie(named:)` and `cookieValues(named:)`: the server's one reader of the `Cookie` field.
@Suite("Request cookies")
struct RequestCookiesTests {
    private static func request(_ cookieFields: [String]) -> Request {
        var head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/")
        for field in cookieFields { head.headerFields.append(HTTPField(name: .cookie, value: field)) }
        return Request(head: head, body: .init(buffer: ByteBuffer()))
    }

    @Test("a cookie among others, with or without the space after the separator")
    func findsTheNamedCookie() {
        let request = Self.request(["a=1; latchkey_ceremony=ticket.part-two;b=2", "c=3"])
        #expect(request.cookie(named: "latchkey_ceremony") == "ticket.part-two")
        #expect(request.cookie(named: "b") == "2")
        #expect(request.cookie(named: "c") == "3", "from the second field")
        #expect(request.cookie(named: "missing") == nil)
        #expect(Self.request([]).cookie(named: "a") == nil)
    }

    @Test("names match whole and exactly")
    func namesMatchExactly() {
        let request = Self.request(["xlatchkey_session=1; latchkey_session2=2; Latchkey_session=3; latchkey_session =4"]
        )
        #expect(request.cookie(named: "latchkey_session") == nil)
        #expect(request.cookieValues(named: "latchkey_session").isEmpty)
    }

    @Test("a value is everything after the pair's first '=', and may be empty")
    func valuesAreKeptWhole() {
        let request = Self.request(["t=a=b==; e=; q=\"quoted\"; u=caf\u{E9}; nothing; =orphan"])
        #expect(request.cookie(named: "t") == "a=b==")
        #expect(request.cookie(named: "e") == "")
        #expect(request.cookie(named: "q") == "\"quoted\"")
        #expect(request.cookie(named: "u") == "caf\u{E9}")
        #expect(request.cookie(named: "nothing") == nil, "a pair without '=' is no cookie")
        #expect(request.cookie(named: "") == nil, "a pair without a name is no cookie")
    }

    @Test("every value of a repeated name, in order, across fields; the first is the one cookie(named:) gives")
    func repeatedNames() {
        let request = Self.request(["s=first; other=x;\ts=second", "s=third"])
        #expect(request.cookieValues(named: "s") == ["first", "second", "third"])
        #expect(request.cookie(named: "s") == "first")
    }

    @Test(
        "reads what Hummingbird's Cookies reads, but for an empty value",
        arguments: [
            "a=1", "a=1; b=2", "a=1;b=2;  c=3", " a=1", "a", "=1", "a=1=2", "a=1; a=2", ";;a=1;;", "a=x; ", "b=1;a",
            "name=v\u{E9}lue; n\u{E9}=2", "a=1;\tb=2", "",
        ])
    func agreesWithHummingbird(field: String) {
        let request = Self.request([field])
        for name in ["a", "b", "c", "name", "n\u{E9}", ""] {
            #expect(request.cookie(named: name).map(String.init) == request.cookies[name]?.value, "\(name) in \(field)")
        }
    }
}
