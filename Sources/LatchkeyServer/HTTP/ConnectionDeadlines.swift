import NIOCore

/// How long a client may take over each part of an HTTP/1 connection before the server closes it.
///
/// - `idle`: a connection with no request under way (a new one before its first byte, or a kept-alive one between
///   requests).
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

/// The idle, header and body deadlines of one connection. Confined to the connection's event loop.
///
/// A request moves the deadline; it does not schedule a timer. One timer at a time is pending per connection: when it
/// fires, the connection is closed if the current phase's deadline has passed, and otherwise the timer is set again for
/// that deadline. A new timer is scheduled only when a deadline comes before the pending one. On a kept-alive
/// connection with steady traffic that is one timer per header deadline (10 s), not timers scheduled and cancelled
/// per request, which was a visible part of a request's cost.
final class RequestReadTimer {
    private enum Phase {
        /// No request under way and none waiting for its answer: the idle timeout.
        case waiting
        /// From a request's first byte to the end of its headers.
        case headers
        /// From the end of the headers to the end of the body.
        case body
        /// Requests read and waiting for their answers: no deadline (the server's own work is not the client's).
        case answering
    }

    private let channel: any Channel
    private let deadlines: (idle: TimeAmount, header: TimeAmount, body: TimeAmount)
    private var phase = Phase.waiting
    /// When the current phase must be over (`distantFuture` while answering).
    private var deadline = NIODeadline.distantFuture
    /// The pending timer and when it fires.
    private var scheduled: (task: Scheduled<Void>, at: NIODeadline)?

    init(channel: any Channel, deadlines: ConnectionDeadlines) {
        self.channel = channel
        self.deadlines = (TimeAmount(deadlines.idle), TimeAmount(deadlines.header), TimeAmount(deadlines.body))
    }

    /// A new connection: its first request must begin within the idle timeout.
    func waitForRequest() {
        phase = .waiting
        move(to: .now() + deadlines.idle)
    }

    /// Bytes arrived: when no request is being read, they begin one and its headers must be complete in time.
    func bytesArrived() {
        guard phase == .waiting || phase == .answering else { return }
        phase = .headers
        move(to: .now() + deadlines.header)
    }

    /// The headers are complete: the body must be complete in time.
    func headReceived() {
        phase = .body
        move(to: .now() + deadlines.body)
    }

    /// The request is complete; it waits for its answer, with no deadline.
    func endReceived() {
        phase = .answering
        deadline = .distantFuture
    }

    /// Every request read has been answered: unless another is being read, the idle timeout starts again.
    func allAnswered() {
        guard phase == .answering else { return }
        waitForRequest()
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
        guard deadline != .distantFuture else { return }
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
