import Foundation
import LatchkeyClient
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// ``LatchkeyClient/HTTPTransport`` for the load generator: one kept-alive HTTP/1.1 connection to one server, on
/// SwiftNIO's shared event loops, for one simulated user.
///
/// A load test's user sends one request at a time to one server, so it needs no connection pool. Through
/// AsyncHTTPClient's pool and request state machines the load generator, which shares the machine with the server under
/// test, spent about a third more CPU per login (docs/PERFORMANCE.md, ninth round). Here a request is a message down one channel and its
/// response completes a promise: responses come back in the order the requests went out, so requests that do overlap
/// are still answered correctly. A closed connection is opened again by the next request, and a request to another
/// server replaces the connection with one to that server.
final class KeepAliveHTTPTransport: HTTPTransport, Sendable {
    /// Why an exchange failed without a response.
    enum Failure: Error, CustomStringConvertible {
        case notHTTP(URL)
        case timedOut(TimeAmount)
        case closed
        case responseTooLarge(Int)

        var description: String {
            switch self {
            case .notHTTP(let url): "\(url.absoluteString) is not an http:// URL with a host"
            case .timedOut(let limit): "no response within \(limit.nanoseconds / 1_000_000) ms"
            case .closed: "the server closed the connection before it answered"
            case .responseTooLarge(let limit): "the response is larger than \(limit) bytes"
            }
        }
    }

    static let maximumBodySize = 1 << 20

    private let timeout: TimeAmount
    /// The open connection and the server it is to.
    private let connection = Mutex<(channel: any Channel, host: String, port: Int)?>(nil)

    /// A transport that opens its connection with the first request, and answers each within `timeout`.
    init(timeout: TimeAmount = .seconds(30)) {
        self.timeout = timeout
    }

    deinit {
        connection.withLock { $0?.channel.close(promise: nil) }
    }

    /// Whether a connection is open (the next request to its server reuses it).
    var isConnected: Bool {
        connection.withLock { $0?.channel.isActive ?? false }
    }

    /// Closes the connection (the next request opens a new one).
    func close() async {
        let open = connection.withLock { open in
            defer { open = nil }
            return open
        }
        try? await open?.channel.close()
    }

    func send(_ request: LatchkeyClient.HTTPRequest) async throws(LatchkeyClientError) -> HTTPResponse {
        try await send(request, timeout: timeout)
    }

    /// Sends `request` and waits at most `timeout` for its response.
    func send(_ request: LatchkeyClient.HTTPRequest, timeout: TimeAmount) async throws(LatchkeyClientError) -> HTTPResponse {
        do {
            let channel = try await connectedChannel(for: request.url)
            let promise = channel.eventLoop.makePromise(of: HTTPResponse.self)
            let timer = channel.eventLoop.scheduleTask(in: timeout) {
                channel.pipeline.fireErrorCaught(Failure.timedOut(timeout))
            }
            // A write that fails never reaches the handler's queue (the connection closed in between): fail the
            // response with it, or nothing would.
            let written = channel.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenFailure { promise.fail($0) }
            channel.writeAndFlush(Exchange(request: Self.wire(request), promise: promise), promise: written)
            defer { timer.cancel() }
            return try await promise.futureResult.get()
        } catch {
            throw .transport("\(request.method) \(request.url.absoluteString): \(error)")
        }
    }

    /// The open connection to the request's server, or a new one.
    private func connectedChannel(for url: URL) async throws -> any Channel {
        guard url.scheme == "http", let host = url.host else { throw Failure.notHTTP(url) }
        let port = url.port ?? 80
        if let open = connection.withLock({ $0 }), open.channel.isActive, open.host == host, open.port == port {
            return open.channel
        }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(3))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ExchangeHandler())
                }
            }
            .connect(host: host, port: port)
            .get()
        let previous = connection.withLock { current in
            defer { current = (channel, host, port) }
            return current
        }
        previous?.channel.close(promise: nil)
        return channel
    }

    /// The request as HTTP/1.1 parts: its headers, `Host` and the body's length.
    private static func wire(_ request: LatchkeyClient.HTTPRequest) -> (head: HTTPRequestHead, body: [UInt8]?) {
        var path = request.url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = request.url.query(percentEncoded: true) { path += "?" + query }
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headers.count + 2)
        let host = request.url.host ?? "localhost"
        headers.add(name: "Host", value: request.url.port.map { "\(host):\($0)" } ?? host)
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        if let body = request.body { headers.add(name: "Content-Length", value: String(body.count)) }
        return (HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: path, headers: headers), request.body)
    }
}

/// A request going out and the promise its response completes.
private struct Exchange: Sendable {
    let request: (head: HTTPRequestHead, body: [UInt8]?)
    let promise: EventLoopPromise<HTTPResponse>
}

/// Writes each ``Exchange``'s request and completes the oldest waiting promise with each response; fails every
/// waiting promise when the connection fails or closes. Confined to its channel's event loop.
private final class ExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Exchange
    typealias OutboundOut = HTTPClientRequestPart

    private var waiting = CircularBuffer<EventLoopPromise<HTTPResponse>>()
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        waiting.append(exchange.promise)
        context.write(wrapOutboundOut(.head(exchange.request.head)), promise: nil)
        if let bytes = exchange.request.body {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            head = responseHead
            body.removeAll(keepingCapacity: true)
        case .body(let buffer):
            guard body.count + buffer.readableBytes <= KeepAliveHTTPTransport.maximumBodySize else {
                fail(KeepAliveHTTPTransport.Failure.responseTooLarge(KeepAliveHTTPTransport.maximumBodySize), context: context)
                return
            }
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let responseHead = head, let promise = waiting.popFirst() else { return }
            head = nil
            promise.succeed(Self.response(responseHead, body: body))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(KeepAliveHTTPTransport.Failure.closed, context: context)
        context.fireChannelInactive()
    }

    /// Closes the connection, then fails every waiting request with `error`: closed first, so that a request sent as
    /// soon as a failure is seen finds the connection inactive and opens a new one.
    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        let failed = waiting
        waiting.removeAll()
        head = nil
        context.close(promise: nil)
        for promise in failed { promise.fail(error) }
    }

    /// The response as ``LatchkeyClient/HTTPResponse`` holds it: `Set-Cookie` fields apart, other repeated fields joined.
    private static func response(_ head: HTTPResponseHead, body: [UInt8]) -> HTTPResponse {
        var headers: [String: String] = [:]
        var setCookies: [String] = []
        for (name, value) in head.headers {
            let key = name.lowercased()
            if key == "set-cookie" {
                setCookies.append(value)
            } else {
                headers[key] = headers[key].map { "\($0), \(value)" } ?? value
            }
        }
        return HTTPResponse(status: Int(head.status.code), headers: headers, setCookies: setCookies, body: body)
    }
}
