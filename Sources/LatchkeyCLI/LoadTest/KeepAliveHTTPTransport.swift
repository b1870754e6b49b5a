import Foundation
import LatchkeyClient
import NIOCore
import NIOPosix
import Synchronization

/// ``LatchkeyClient/HTTPTransport`` for the load generator: one kept-alive HTTP/1.1 connection to one server, on
/// SwiftNIO's shared event loops, for one simulated user.
///
/// A load test's user sends one request at a time to one server, so it needs no connection pool. Through
/// AsyncHTTPClient's pool and request state machines the load generator, which shares the machine with the server under
/// test, spent about a third more CPU per login (docs/PERFORMANCE.md). Here a request is a message down one channel and its
/// response completes a promise: responses come back in the order the requests went out, so requests that do overlap
/// are still answered correctly. The channel carries bytes: each request is written as HTTP/1.1 in one buffer, and
/// responses are read by ``HTTP1ResponseReader`` (fifteenth round). A closed connection is opened again by the next
/// request, and a request to another server replaces the connection with one to that server.
final class KeepAliveHTTPTransport: HTTPTransport, Sendable {
    /// Why an exchange failed without a response.
    enum Failure: Error, CustomStringConvertible {
        case notHTTP(URL)
        case invalidField(String)
        case timedOut(TimeAmount)
        case closed
        case unrequested

        var description: String {
            switch self {
            case .notHTTP(let url): "\(url.absoluteString) is not an http:// URL with a host"
            case .invalidField(let name):
                "the header field \"\(name)\" cannot be sent in HTTP/1.1 (a name that is not a token, or a line break in the value)"
            case .timedOut(let limit): "no response within \(limit.nanoseconds / 1_000_000) ms"
            case .closed: "the server closed the connection before it answered"
            case .unrequested: "the server sent a response to no request"
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
    func send(_ request: LatchkeyClient.HTTPRequest, timeout: TimeAmount) async throws(LatchkeyClientError)
        -> HTTPResponse
    {
        do {
            let bytes = try Self.wire(request)
            let channel = try await connectedChannel(for: request.url)
            let promise = channel.eventLoop.makePromise(of: HTTPResponse.self)
            let timer = channel.eventLoop.scheduleTask(in: timeout) {
                channel.pipeline.fireErrorCaught(Failure.timedOut(timeout))
            }
            // A write that fails never reaches the handler's queue (the connection closed in between): fail the
            // response with it, or nothing would.
            let written = channel.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenFailure { promise.fail($0) }
            channel.writeAndFlush(Exchange(request: bytes, promise: promise), promise: written)
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

    /// The request as HTTP/1.1 bytes: the request line, `Host`, its fields, `Content-Length` when it has a body, and the
    /// body. Throws ``Failure/invalidField(_:)`` for a field HTTP/1.1 cannot carry (it would split the request).
    static func wire(_ request: LatchkeyClient.HTTPRequest) throws(Failure) -> [UInt8] {
        guard let host = request.url.host else { throw .notHTTP(request.url) }
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        guard isToken(request.method), !target.utf8.contains(where: { $0 <= 32 || $0 == 127 }) else {
            throw .invalidField(request.method)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + (request.body?.count ?? 0))
        func line(_ parts: String...) {
            for part in parts { bytes.append(contentsOf: part.utf8) }
            bytes.append(contentsOf: [13, 10])
        }
        line(request.method, " ", target, " HTTP/1.1")
        line("Host: ", request.url.port.map { "\(host):\($0)" } ?? host)
        // Sorted, so that the same request is always the same bytes.
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            guard isToken(name), !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw .invalidField(name)
            }
            line(name, ": ", value)
        }
        if let body = request.body { line("Content-Length: ", String(body.count)) }
        line()
        if let body = request.body { bytes.append(contentsOf: body) }
        return bytes
    }

    /// Whether `text` is an HTTP token (RFC 9110 §5.6.2): a field name or a method.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    tokenSymbols.contains(byte)
                }
            }
    }

    /// The characters besides letters and digits a token may have.
    private static let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)
}

/// A request going out, as bytes, and the promise its response completes.
private struct Exchange: Sendable {
    let request: [UInt8]
    let promise: EventLoopPromise<HTTPResponse>
}

/// Writes each ``Exchange``'s request and completes the oldest waiting promise with each response read; fails every
/// waiting promise when the connection fails or closes, or a response cannot be read. Confined to its channel's event
/// loop.
private final class ExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = Exchange
    typealias OutboundOut = ByteBuffer

    private var waiting = CircularBuffer<EventLoopPromise<HTTPResponse>>()
    private var reader = HTTP1ResponseReader(maximumBodySize: KeepAliveHTTPTransport.maximumBodySize)

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        waiting.append(exchange.promise)
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: exchange.request)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        reader.append(unwrapInboundIn(data).readableBytesView)
        do {
            while let response = try reader.next() {
                guard let promise = waiting.popFirst() else {
                    fail(KeepAliveHTTPTransport.Failure.unrequested, context: context)
                    return
                }
                promise.succeed(response)
            }
        } catch {
            fail(error, context: context)
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
        context.close(promise: nil)
        for promise in failed { promise.fail(error) }
    }
}
