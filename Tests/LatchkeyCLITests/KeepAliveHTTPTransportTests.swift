import Foundation
import LatchkeyClient
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

@testable import LatchkeyCLI

/// The load generator's HTTP transport against a real HTTP/1.1 server on loopback that counts its connections.
@Suite("KeepAliveHTTPTransport")
struct KeepAliveHTTPTransportTests {
    @Test("a request goes out with its method, path, headers, Host and body; the response comes back whole")
    func roundTrip() async throws {
        try await withTransport { server, transport in
            let response = try await transport.send(
                HTTPRequest(
                    method: "POST", url: server.url("/echo?x=1"),
                    headers: ["X-Test": "yes", "Content-Type": "application/json"],
                    body: Array(#"{"a":1}"#.utf8)
                ))
            #expect(response.status == 201)
            #expect(response.headers["x-method"] == "POST")
            #expect(response.headers["x-uri"] == "/echo?x=1")
            #expect(response.headers["x-host"] == "127.0.0.1:\(server.port)")
            #expect(response.headers["x-test"] == "yes")
            #expect(response.headers["x-content-length"] == "7")
            #expect(response.headers["x-repeated"] == "one, two", "repeated fields joined")
            #expect(response.setCookies == ["a=1; Path=/", "b=2; Path=/"], "each Set-Cookie kept apart")
            #expect(response.headers["set-cookie"] == nil)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":1}"#)
        }
    }

    @Test("requests one after another share one connection, each with its own method and target, round after round")
    func repeatsAndVariesRequests() async throws {
        try await withTransport { server, transport in
            let requests = [("POST", "/echo?a=1"), ("GET", "/echo?a=1"), ("POST", "/echo?a=2"), ("POST", "/echo")]
            for round in 0..<3 {
                for (method, target) in requests {
                    let response = try await transport.send(HTTPRequest(method: method, url: server.url(target)))
                    #expect(
                        response.headers["x-method"] == method && response.headers["x-uri"] == target, "round \(round)")
                }
            }
            #expect(server.connections == 1)
        }
    }

    @Test("after the server closes the connection, the next request opens a new one")
    func reconnects() async throws {
        try await withTransport { server, transport in
            let closing = try await transport.send(HTTPRequest(method: "GET", url: server.url("/close")))
            #expect(closing.status == 200)
            try await expectReconnects(server, transport)
        }
    }

    @Test("a request to another server replaces the connection with one to that server")
    func followsTheServer() async throws {
        try await TestHTTPServer.with { first in
            try await TestHTTPServer.with { second in
                let transport = KeepAliveHTTPTransport()
                let a = try await transport.send(HTTPRequest(method: "GET", url: first.url("/echo")))
                let b = try await transport.send(HTTPRequest(method: "GET", url: second.url("/echo")))
                #expect(a.headers["x-host"] == "127.0.0.1:\(first.port)")
                #expect(b.headers["x-host"] == "127.0.0.1:\(second.port)")
                #expect(first.connections == 1 && second.connections == 1)
                await transport.close()
            }
        }
    }

    @Test("a server that never answers is a transport error after the timeout, and the next request still works")
    func timesOut() async throws {
        try await withTransport { server, transport in
            await expectTransportError(containing: "no response within 200 ms") {
                _ = try await transport.send(
                    HTTPRequest(method: "GET", url: server.url("/silent")), timeout: .milliseconds(200))
            }
            // The next request, with the default limit (30 s), on a new connection.
            let next = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo")))
            #expect(next.status == 201)
            #expect(server.connections == 2)
        }
    }

    @Test(
        "a connection closed before the answer, or an answer that is not HTTP/1.1, fails the request; the next one reconnects",
        arguments: [
            ("/hangup", "the server closed the connection before it answered"),
            ("/garbage", "the response is not HTTP/1.1"),
        ]
    )
    func failsAndReconnects(path: String, message: String) async throws {
        try await withTransport { server, transport in
            await expectTransportError(containing: message) {
                _ = try await transport.send(HTTPRequest(method: "GET", url: server.url(path)))
            }
            let next = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo")))
            #expect(next.status == 201)
            #expect(server.connections == 2)
        }
    }

    @Test("a response body over the limit is a transport error")
    func limitsTheBody() async throws {
        try await withTransport { server, transport in
            await expectTransportError(containing: "larger than \(KeepAliveHTTPTransport.maximumBodySize) bytes") {
                _ = try await transport.send(HTTPRequest(method: "GET", url: server.url("/large")))
            }
        }
    }

    @Test("a request is written as HTTP/1.1: request line, Host, fields in name order, Content-Length, body")
    func writesRequestBytes() throws {
        let request = HTTPRequest(
            method: "POST", url: try #require(URL(string: "http://127.0.0.1:8080/v1/x?y=1")),
            headers: ["X-B": "2", "Content-Type": "application/json", "Cookie": "a=b"], body: Array("{}".utf8)
        )
        let text =
            "POST /v1/x?y=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nCookie: a=b\r\n"
            + "X-B: 2\r\nContent-Length: 2\r\n\r\n{}"
        #expect(try KeepAliveHTTPTransport.wire(request) == Array(text.utf8))
        let get = HTTPRequest(method: "GET", url: try #require(URL(string: "http://localhost")))
        #expect(try KeepAliveHTTPTransport.wire(get) == Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
    }

    @Test(
        "a field or method HTTP/1.1 cannot carry is refused before anything is sent",
        arguments: [
            ("GET", "X-Injected", "a\r\nEvil: 1"), ("GET", "Bad Name", "x"), ("GET", "", "x"), ("GE T", "X", "y"),
        ])
    func refusesFieldsThatWouldSplitTheRequest(method: String, name: String, value: String) async throws {
        try await withTransport { server, transport in
            await expectTransportError(containing: "cannot be sent in HTTP/1.1") {
                _ = try await transport.send(
                    HTTPRequest(method: method, url: server.url("/echo"), headers: [name: value]))
            }
            #expect(server.connections == 0)
        }
    }

    @Test("a second response to one request is refused: the request keeps the first, the connection is closed")
    func refusesUnrequestedResponses() async throws {
        try await withTransport { server, transport in
            let first = try await transport.send(HTTPRequest(method: "GET", url: server.url("/twice")))
            #expect(first.status == 200 && first.body == Array("1".utf8))
            try await expectReconnects(server, transport)
        }
    }

    @Test("a chunked response is read whole")
    func readsChunkedResponses() async throws {
        try await withTransport { server, transport in
            let response = try await transport.send(HTTPRequest(method: "GET", url: server.url("/chunked")))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "hello, world")
        }
    }

    @Test("a URL that is not http:// is refused before anything is sent")
    func refusesOtherSchemes() async throws {
        let transport = KeepAliveHTTPTransport()
        await expectTransportError(containing: "is not an http:// URL") {
            _ = try await transport.send(
                HTTPRequest(method: "GET", url: try #require(URL(string: "https://example.com/"))))
        }
    }
}

/// Runs `body` with a new transport against a new ``TestHTTPServer``, and closes the transport whether `body` returns or
/// throws.
/// Once the server has closed the transport's connection, the next request opens a second one and is answered.
private func expectReconnects(_ server: TestHTTPServer, _ transport: KeepAliveHTTPTransport) async throws {
    // The server's close reaches the client's event loop on its own schedule: wait for it rather than race it.
    for _ in 0..<400 where transport.isConnected { try await Task.sleep(for: .milliseconds(5)) }
    #expect(!transport.isConnected)
    let next = try await transport.send(HTTPRequest(method: "GET", url: server.url("/echo")))
    #expect(next.status == 201)
    #expect(server.connections == 2)
}

private func withTransport(_ body: (TestHTTPServer, KeepAliveHTTPTransport) async throws -> Void) async throws {
    try await TestHTTPServer.with { server in
        let transport = KeepAliveHTTPTransport()
        do {
            try await body(server, transport)
        } catch {
            await transport.close()
            throw error
        }
        await transport.close()
    }
}

/// Expects `body` to throw ``LatchkeyClientError/transport(_:)`` with a message containing `text`.
private func expectTransportError(
    containing text: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    await #expect(sourceLocation: sourceLocation) {
        try await body()
    } throws: { error in
        guard case LatchkeyClientError.transport(let message) = error else { return false }
        return message.contains(text)
    }
}

/// A small HTTP/1.1 server on loopback that counts the connections it accepts. `/echo` answers 201
/// with the request's method, URI, Host, `X-Test` and `Content-Length` as headers, a repeated field, two cookies and
/// the body back; `/close` answers and closes the connection; `/hangup` closes it without answering; `/silent` never
/// answers; `/large` answers with a body one byte over the transport's limit; `/garbage` answers with bytes that are not
/// HTTP/1.1; `/twice` answers twice; `/chunked` answers with a chunked body.
private struct TestHTTPServer {
    final class Counters: Sendable {
        let accepted = Atomic<Int>(0)
    }

    let port: Int
    let counters: Counters

    var connections: Int { counters.accepted.load(ordering: .relaxed) }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    static func with(_ body: (TestHTTPServer) async throws -> Void) async throws {
        let counters = Counters()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counters.accepted.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Responder())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        do {
            try await body(TestHTTPServer(port: try #require(channel.localAddress?.port), counters: counters))
        } catch {
            try? await channel.close()
            throw error
        }
        try await channel.close()
    }

    private final class Responder: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private var head: HTTPRequestHead?
        private var body: [UInt8] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let requestHead):
                head = requestHead
                body = []
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                guard let head else { return }
                respond(to: head, context: context)
            }
        }

        private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
            var headers = HTTPHeaders()
            var status = HTTPResponseStatus.ok
            var bytes: [UInt8] = []
            switch head.uri.split(separator: "?").first ?? "" {
            case "/echo":
                status = .created
                headers.add(name: "X-Method", value: head.method.rawValue)
                headers.add(name: "X-URI", value: head.uri)
                headers.add(name: "X-Host", value: head.headers["Host"].joined(separator: ","))
                headers.add(name: "X-Test", value: head.headers["X-Test"].joined(separator: ","))
                headers.add(name: "X-Content-Length", value: head.headers["Content-Length"].joined(separator: ","))
                headers.add(name: "X-Repeated", value: "one")
                headers.add(name: "X-Repeated", value: "two")
                headers.add(name: "Set-Cookie", value: "a=1; Path=/")
                headers.add(name: "Set-Cookie", value: "b=2; Path=/")
                bytes = body
            case "/close":
                headers.add(name: "Connection", value: "close")
            case "/silent":
                return
            case "/hangup":
                context.close(promise: nil)
                return
            case "/large":
                bytes = Array(repeating: 0x61, count: KeepAliveHTTPTransport.maximumBodySize + 1)
            case "/garbage":
                // Raw bytes, written from the HTTP encoder's place in the pipeline so that they pass below it.
                let bytes = context.channel.allocator.buffer(string: "SPDY/3 200 OK\r\n\r\n")
                try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self).writeAndFlush(
                    NIOAny(bytes), promise: nil)
                return
            case "/twice":
                // Two answers in one write, to one request.
                let bytes = context.channel.allocator.buffer(
                    string: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n2"
                )
                try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self).writeAndFlush(
                    NIOAny(bytes), promise: nil)
                return
            case "/chunked":
                // No Content-Length: NIO's encoder frames the body in chunks.
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok))), promise: nil)
                for part in ["hello", ", ", "world"] {
                    context.write(
                        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: part)))),
                        promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            default:
                status = .notFound
            }
            headers.add(name: "Content-Length", value: String(bytes.count))
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                promise: nil)
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil)
            let channel = context.channel
            let close = head.uri == "/close"
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if close { channel.close(promise: nil) }
            }
        }
    }
}
