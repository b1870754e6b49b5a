import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// How long a client may take over each part of an HTTP/1 connection before the server closes it.
///
/// - `idle`: a connection with no request under way (a new one before its first byte, or a kept-alive one between
///   requests). Enforced by Hummingbird's own `HTTP1Channel` idle timeout.
/// - `header`: from the first byte of a request to the end of its headers.
/// - `body`: from the end of the headers to the end of the body.
///
/// Without them a client that sends half a request and stops (slowloris) holds a connection for ever.
public struct ConnectionDeadlines: Sendable, Equatable {
    /// How long a connection with no request under way stays open.
    public var idle: Duration
    /// How long a request's headers may take from its first byte.
    public var header: Duration
    /// How long a request's body may take after its headers.
    public var body: Duration

    /// Deadlines as given.
    public init(idle: Duration, header: Duration, body: Duration) {
        self.idle = idle
        self.header = header
        self.body = body
    }
}

/// Hummingbird's `HTTP1Channel` with ``ConnectionDeadlines``: the idle timeout in its configuration, and two small
/// handlers of ours, sharing one ``RequestReadTimer`` per connection, for the header and body deadlines.
struct DeadlineHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let deadlines: ConnectionDeadlines

    /// The server builder for `Application(server:)`.
    static func builder(_ deadlines: ConnectionDeadlines) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            DeadlineHTTP1Channel(
                inner: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: TimeAmount(deadlines.idle))),
                deadlines: deadlines
            )
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let timer = RequestReadTimer(channel: channel, header: TimeAmount(deadlines.header), body: TimeAmount(deadlines.body))
            // Raw bytes, before the HTTP decoder: the first byte of a request starts the header deadline.
            try operations.addHandler(RequestBytesObserver(timer: timer), position: .first)
            // Decoded parts, right after the decoder: the end of the headers and of the body.
            let decoder = try operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(RequestPartObserver(timer: timer), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// The header and body deadlines of one connection. Confined to the connection's event loop.
///
/// A request moves the deadline; it does not schedule a timer. One timer at a time is pending per connection: when it
/// fires, the connection is closed if the current phase's deadline has passed, and otherwise the timer is set again for
/// that deadline (or not at all between requests). A new timer is scheduled only when a deadline comes before the
/// pending one. On a kept-alive connection with steady traffic that is one timer per header deadline (10 s), not
/// two timers scheduled and cancelled per request, which was a visible part of a request's cost.
final class RequestReadTimer {
    private enum Phase { case waiting, headers, body }

    private let channel: any Channel
    private let header: TimeAmount
    private let body: TimeAmount
    private var phase = Phase.waiting
    /// When the current phase must be over (`distantFuture` between requests).
    private var deadline = NIODeadline.distantFuture
    /// The pending timer and when it fires.
    private var scheduled: (task: Scheduled<Void>, at: NIODeadline)?

    init(channel: any Channel, header: TimeAmount, body: TimeAmount) {
        self.channel = channel
        self.header = header
        self.body = body
    }

    /// Bytes arrived: when no request is under way, they begin one and its headers must be complete in time.
    func bytesArrived() {
        guard phase == .waiting else { return }
        phase = .headers
        move(to: .now() + header)
    }

    /// The headers are complete: the body must be complete in time.
    func headReceived() {
        phase = .body
        move(to: .now() + body)
    }

    /// The request is complete; the next one starts with its first byte (until then the idle timeout applies). A
    /// pending timer stays: when it fires between requests it does nothing.
    func endReceived() {
        phase = .waiting
        deadline = .distantFuture
    }

    func cancel() {
        scheduled?.task.cancel()
        scheduled = nil
        deadline = .distantFuture
    }

    private func move(to newDeadline: NIODeadline) {
        deadline = newDeadline
        if let scheduled {
            // A pending timer that fires no later than the new deadline checks it then.
            guard newDeadline < scheduled.at else { return }
            scheduled.task.cancel()
        }
        arm(at: newDeadline)
    }

    private func arm(at time: NIODeadline) {
        let task = channel.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: time) { [self] in
            fired()
        }
        scheduled = (task, time)
    }

    private func fired() {
        scheduled = nil
        guard phase != .waiting else { return }
        if deadline <= .now() {
            channel.close(promise: nil)
        } else {
            arm(at: deadline)
        }
    }
}

/// Sees the raw bytes of a connection (first in the pipeline) and tells the ``RequestReadTimer``.
final class RequestBytesObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timer: RequestReadTimer

    init(timer: RequestReadTimer) {
        self.timer = timer
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if unwrapInboundIn(data).readableBytes > 0 { timer.bytesArrived() }
        context.fireChannelRead(data)
    }
}

/// Sees the decoded request parts (right after the HTTP decoder) and tells the ``RequestReadTimer``.
final class RequestPartObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let timer: RequestReadTimer

    init(timer: RequestReadTimer) {
        self.timer = timer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: timer.headReceived()
        case .body: break
        case .end: timer.endReceived()
        }
        context.fireChannelRead(data)
    }
}
