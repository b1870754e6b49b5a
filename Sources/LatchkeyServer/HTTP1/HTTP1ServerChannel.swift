import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import LatchkeyAPI
import Logging
import NIOCore
import NIOHTTP1

/// The server's HTTP/1 connections: each request is read whole on the connection's event loop
/// (``HTTP1ConnectionHandler``, which follows an ``HTTP1ConnectionStateMachine``), answered by the router in the
/// connection's task, and written back as one buffer.
///
/// Hummingbird's `Server` still binds, accepts, runs one task per connection (``handle(value:logger:)``) and tells
/// each connection to quiesce on graceful shutdown. What this replaces is Hummingbird's `HTTP1Channel`, which streams
/// each request and response as parts through a `NIOAsyncChannel` (an inbound stream, an outbound writer, the body
/// as its own stream): about 13–59 µs of server CPU per login more, 10–15 % (docs/PERFORMANCE.md). Every route of
/// ours takes a small JSON or form body and answers with one buffer, so nothing here needs streaming.
///
/// A connection from an address that already holds ``ConnectionLimiter/maxPerAddress`` connections is closed as it is
/// accepted.
struct HTTP1ServerChannel: ServerChildChannel {
    /// One accepted connection: its channel, the whole requests its handler reads, and the handler to answer through.
    struct Connection: ServerChildChannelValue {
        let channel: any Channel
        let requests: AsyncStream<HTTP1ConnectionHandler.Incoming>
        let handler: NIOLoopBound<HTTP1ConnectionHandler>

        /// Hands a response to the handler, on the connection's event loop.
        func send(_ response: HTTPResponse, body: ByteBuffer, for facts: HTTP1ConnectionStateMachine.Facts) {
            if channel.eventLoop.inEventLoop {
                handler.value.send(response, body: body, for: facts)
            } else {
                channel.eventLoop.execute { handler.value.send(response, body: body, for: facts) }
            }
        }
    }

    let responder: RouterResponder<ServerRequestContext>
    let limits: HTTP1ConnectionStateMachine.Limits
    let connections: ConnectionLimiter
    let serverName: String

    /// The server builder for `Application(responder:server:)`, answering with `responder`.
    ///
    /// Hummingbird's `Application` hands a builder its own responder closure, which answers through a
    /// `ResponseWriter` on a `NIOAsyncChannel`; this channel does not take it and calls the router's responder itself.
    static func builder(
        responder: RouterResponder<ServerRequestContext>, limits: HTTP1ConnectionStateMachine.Limits,
        connections: ConnectionLimiter, serverName: String
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { _ in
            HTTP1ServerChannel(responder: responder, limits: limits, connections: connections, serverName: serverName)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Connection> {
        channel.eventLoop.makeCompletedFuture {
            let (requests, continuation) = AsyncStream.makeStream(of: HTTP1ConnectionHandler.Incoming.self)
            let handler = HTTP1ConnectionHandler(
                limits: limits, serverName: serverName, requests: { continuation.yield($0) },
                finished: { continuation.finish() }
            )
            let operations = channel.pipeline.syncOperations
            // First: a connection past the address's cap is closed as it becomes active.
            try operations.addHandler(ConnectionCapHandler(limiter: connections, peer: channel.remoteAddress))
            // Raw bytes, before the HTTP decoder: the first byte of a request starts the header deadline.
            try operations.addHandler(RequestBytesObserver(connection: handler))
            try operations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(limitConfiguration: Self.headLimits)))
            try operations.addHandler(handler)
            return Connection(
                channel: channel, requests: requests, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
        }
    }

    func handle(value connection: Connection, logger: Logger) async {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop: connection.channel.eventLoop)) {
                await answer(connection, logger: logger)
            }
        } else {
            await answer(connection, logger: logger)
        }
    }

    /// Answers the connection's requests in order until it ends.
    private func answer(_ connection: Connection, logger: Logger) async {
        await withTaskCancellationHandler {
            for await incoming in connection.requests {
                switch incoming {
                case .request(let request, let requestBody, let facts):
                    let (response, body) = await respond(
                        to: request, body: requestBody, channel: connection.channel, logger: logger
                    )
                    connection.send(response, body: body, for: facts)
                case .malformed:
                    connection.send(Self.malformed.response, body: Self.malformed.body, for: .closing)
                }
            }
        } onCancel: {
            connection.channel.close(promise: nil)
        }
    }

    /// The router's answer to `request` with its body collected; 500 `internalError` when the router throws or a
    /// streamed body fails (our error middleware answers every route's error before that). The request's log lines carry a
    /// request ID (`hb.request.id`, Hummingbird's), as they did under Hummingbird's application.
    private func respond(
        to request: Request, body: ByteBuffer, channel: any Channel, logger: Logger
    ) async -> (HTTPResponse, ByteBuffer) {
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        var context = ServerRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        // The body is whole already: the body limit measures it and the routes read it from here, without iterating
        // the request's body stream (each step of that was executor hops).
        context.collectedBody = body
        context.connection = channel
        do {
            let response = try await responder.respond(to: request, context: context)
            let collector = ResponseBodyCollector()
            try await response.body.write(collector)
            return (response.head, collector.buffer)
        } catch {
            logger.error("request failed outside the routes", metadata: ["error.type": "\(type(of: error))"])
            return Self.internalError
        }
    }

    /// The limits on a request's head, Hummingbird's: 80 KiB for a field and for all of them, at most 1,000 fields.
    /// A head over them is answered 400 `request.invalid`.
    static let headLimits: NIOHTTPDecoderLimitConfiguration = {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = 80 * 1024
        limits.maxHeaderListSize = 80 * 1024
        limits.maxHeaderFieldCount = 1000
        return limits
    }()

    /// The answer to bytes that are not an HTTP/1.1 request: 400 `request.invalid`.
    static let malformed = errorAnswer(APIError(.requestInvalid, "the request is not valid HTTP/1.1"))

    /// The answer when the router itself fails: 500 `internalError`, with no detail.
    static let internalError = errorAnswer(.internal)

    /// An error answer in the native error body (`{"error":{"code","message"}}`), made once.
    private static func errorAnswer(_ error: APIError) -> (response: HTTPResponse, body: ByteBuffer) {
        let body = (try? APIJSON.makeEncoder().encode(APIErrorBody(code: error.code, message: error.message)))
        return (
            HTTPResponse(status: error.status, headerFields: [.contentType: "application/json; charset=utf-8"]),
            body.map { ByteBuffer(bytes: $0) } ?? ByteBuffer()
        )
    }
}

/// Gathers a response body's buffers into one (our responses are small JSON bodies and the web page's files).
private final class ResponseBodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        if self.buffer.readableBytes == 0 {
            self.buffer = buffer
        } else {
            self.buffer.writeBuffer(&buffer)
        }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
