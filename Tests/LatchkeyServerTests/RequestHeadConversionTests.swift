import HTTPTypes
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Testing

@testable import LatchkeyServer

/// The connection's own conversion of a decoded request head (`HTTPRequest(plainHTTP:)`) gives what
/// NIOHTTPTypesHTTP1's conversion gives, for every form of target and every way the fields can come.
@Suite("Request head conversion")
struct RequestHeadConversionTests {
    static func head(_ method: HTTPMethod = .POST, _ uri: String, _ fields: [(String, String)]) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: HTTPHeaders(fields))
    }

    static let heads: [HTTPRequestHead] = [
        head(
            .POST, "/v1/passkeys/authentication/options",
            [("Host", "localhost:8080"), ("Content-Type", "application/json"), ("Content-Length", "2")]),
        head(
            .GET, "/v1/me?x=1&y=%20",
            [("host", "a.example"), ("Cookie", "a=1; b=2"), ("Accept", "*/*"), ("accept", "text/html")]),
        head(.GET, "/", [("HOST", "first.example"), ("Host", "second.example"), ("X-Trace", "1")]),
        head(.GET, "/healthz", []),
        head(
            .GET, "/healthz", [("Hosts", "not-the-host"), ("Hos", "nor-this"), ("Bad Name", "dropped"), ("", "empty")]),
        head(.GET, "//evil.example/path", [("Host", "localhost")]),
        head(.GET, "/a:b/c?d:e", [("Host", "localhost")]),
        head(.GET, "http://example.com/absolute?q=1", [("Host", "localhost")]),
        head(.GET, "http://example.com", []),
        head(.OPTIONS, "*", [("Host", "localhost")]),
        head(.CONNECT, "example.com:443", [("Host", "example.com:443")]),
        head(.PROPFIND, "/dav", [("Host", "localhost")]),
        head(.RAW(value: "BREW"), "/pot", [("Host", "localhost")]),
    ]

    @Test("every head converts as NIOHTTPTypesHTTP1 converts it")
    func sameAsTheLibrary() throws {
        for head in Self.heads {
            let ours = try HTTPRequest(plainHTTP: head)
            let library = try HTTPRequest(head, secure: false, splitCookie: false)
            #expect(ours == library, "\(head.method) \(head.uri) \(head.headers)")
            #expect(ours.headerFields.map(\.name.rawName) == library.headerFields.map(\.name.rawName))
        }
    }

    @Test("an origin-form head: the path as sent, the first Host as the authority, the other fields in order")
    func originForm() throws {
        let request = try HTTPRequest(plainHTTP: Self.heads[2])
        #expect(request.method == .get)
        #expect(request.scheme == "http")
        #expect(request.path == "/")
        #expect(request.authority == "first.example")
        #expect(request.headerFields.map { "\($0.name.rawName)=\($0.value)" } == ["Host=second.example", "X-Trace=1"])
        let cookie = try HTTPRequest(plainHTTP: Self.heads[1])
        #expect(cookie.path == "/v1/me?x=1&y=%20")
        #expect(cookie.headerFields[.cookie] == "a=1; b=2")
        #expect(cookie.headerFields[fields: .cookie].count == 1)
        #expect(try HTTPRequest(plainHTTP: Self.heads[3]).authority == nil)
    }

    @Test("a method that is not an HTTP token is refused, as by the library")
    func invalidMethod() {
        let head = Self.head(.RAW(value: "NOT A METHOD"), "/", [("Host", "localhost")])
        #expect(throws: (any Error).self) { try HTTPRequest(plainHTTP: head) }
        #expect(throws: (any Error).self) { try HTTPRequest(head, secure: false, splitCookie: false) }
    }
}
