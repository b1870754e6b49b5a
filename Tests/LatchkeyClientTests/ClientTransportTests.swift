import Foundation
import LatchkeyAPI
import Testing
import WebAuthn

@testable import LatchkeyClient

/// The clients over a scripted transport: headers, cookies and every way a response can fail.
@Suite("Client transport handling")
struct ClientTransportTests {
    /// Answers each request with the next scripted response and records what was sent.
    actor ScriptedTransport: HTTPTransport {
        var responses: [Result<HTTPResponse, LatchkeyClientError>]
        var sent: [HTTPRequest] = []

        init(_ responses: [Result<HTTPResponse, LatchkeyClientError>]) {
            self.responses = responses
        }

        func send(_ request: HTTPRequest) async throws(LatchkeyClientError) -> HTTPResponse {
            sent.append(request)
            guard !responses.isEmpty else { throw .transport("no scripted response") }
            return try responses.removeFirst().get()
        }
    }

    static func server() throws -> URL { try #require(URL(string: "https://rp.example")) }

    static func json(_ status: Int, _ body: String, setCookies: [String] = []) -> Result<
        HTTPResponse, LatchkeyClientError
    > {
        .success(
            HTTPResponse(
                status: status, headers: ["Content-Type": "application/json"], setCookies: setCookies,
                body: Array(body.utf8)))
    }

    @Test("the ceremony cookie from options goes back with the result; an expired cookie is dropped")
    func cookies() async throws {
        let options = #"{"status":"ok","errorMessage":"","challenge":"AQID","rpId":"rp.example","allowCredentials":[]}"#
        let transport = ScriptedTransport([
            Self.json(200, options, setCookies: ["latchkey_ceremony=abc; Path=/; HttpOnly; Max-Age=300"]),
            Self.json(
                200, #"{"status":"ok","errorMessage":""}"#, setCookies: ["latchkey_ceremony=; Path=/; Max-Age=0"]),
            Self.json(200, options),
        ])
        let client = ConformanceClient(server: try Self.server(), transport: transport)
        let parsed = try await client.assertionOptions(ServerRequestOptionsRequest(username: nil))
        #expect(parsed.challenge.bytes == [1, 2, 3] && parsed.allowCredentials == nil)
        let assertion = AuthenticationCredential(
            rawId: [1],
            response: AuthenticatorAssertionResponse(clientDataJSON: [1], authenticatorData: [2], signature: [3])
        )
        try await client.assertionResult(assertion)
        _ = try await client.assertionOptions(ServerRequestOptionsRequest(username: nil))
        let sent = await transport.sent
        #expect(sent.map(\.url.path) == ["/assertion/options", "/assertion/result", "/assertion/options"])
        #expect(sent[0].headers["Cookie"] == nil)
        #expect(sent[1].headers["Cookie"] == "latchkey_ceremony=abc")
        #expect(sent[2].headers["Cookie"] == nil)
        #expect(sent[1].headers["Content-Type"] == "application/json")
        #expect(sent.allSatisfy { $0.headers["Origin"] == nil }, "no origin given, none sent")
    }

    @Test("a conformance client made with an origin sends it as Origin on every request, as a browser does")
    func origin() async throws {
        let transport = ScriptedTransport([Self.json(200, #"{"status":"ok","errorMessage":""}"#)])
        let client = ConformanceClient(server: try Self.server(), transport: transport, origin: "https://rp.example")
        let assertion = AuthenticationCredential(
            rawId: [1],
            response: AuthenticatorAssertionResponse(clientDataJSON: [1], authenticatorData: [2], signature: [3])
        )
        try await client.assertionResult(assertion)
        #expect(await transport.sent.map { $0.headers["Origin"] } == ["https://rp.example"])
    }

    @Test("conformance failures carry errorCode and errorMessage, or the code failed without errorCode")
    func conformanceErrors() async throws {
        let transport = ScriptedTransport([
            Self.json(
                400, #"{"status":"failed","errorMessage":"challenge does not match","errorCode":"challengeMismatch"}"#),
            Self.json(200, #"{"status":"failed","errorMessage":"nope"}"#),
        ])
        let client = ConformanceClient(server: try Self.server(), transport: transport)
        let request = ServerRequestOptionsRequest(username: "x")
        await #expect(
            throws: LatchkeyClientError.server(
                status: 400, code: "challengeMismatch", message: "challenge does not match")
        ) {
            try await client.assertionOptions(request)
        }
        await #expect(throws: LatchkeyClientError.server(status: 200, code: "failed", message: "nope")) {
            try await client.assertionOptions(request)
        }
    }

    @Test(
        "native errors carry the server's code and message; other bodies are unexpected responses; the bearer token is sent"
    )
    func nativeErrors() async throws {
        let transport = ScriptedTransport([
            Self.json(401, #"{"error":{"code":"session.required","message":"sign in first"}}"#),
            .success(HTTPResponse(status: 502, body: Array("<html>bad gateway</html>".utf8))),
            Self.json(200, #"{"id":"u1"}"#),
            .failure(.transport("connection refused")),
        ])
        let client = NativeClient(server: try Self.server(), transport: transport)
        await client.setSessionToken("tok")
        await #expect(
            throws: LatchkeyClientError.server(status: 401, code: "session.required", message: "sign in first")
        ) {
            try await client.me()
        }
        await #expect { try await client.me() } throws: {
            ($0 as? LatchkeyClientError)?.code == "client.unexpectedResponse"
        }
        await #expect { try await client.me() } throws: {
            ($0 as? LatchkeyClientError)?.code == "client.unexpectedResponse"
        }
        await #expect(throws: LatchkeyClientError.transport("connection refused")) { try await client.me() }
        #expect(await transport.sent.first?.headers["Authorization"] == "Bearer tok")
    }

    @Test("Set-Cookie fields Foundation joined with commas are split again, Expires dates intact")
    func setCookieSplitting() {
        let joined = "a=1; Path=/; Expires=Wed, 21 Oct 2015 07:28:00 GMT, b=2; HttpOnly"
        #expect(
            URLSessionTransport.splitSetCookie(joined) == [
                "a=1; Path=/; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "b=2; HttpOnly",
            ])
    }
}
