import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The channel side of one HTTP/1 connection, on its event loop: it feeds what SwiftNIO reads and writes to the
/// connection's ``HTTP1ConnectionStateMachine``, does what the machine says (hand a request to the connection's task,
/// write `100 Continue`, read, close), keeps the one timer the machine's deadline needs, and writes each answer as one
/// buffer.
final class HTTP1ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What the connection's task receives.
    enum Incoming: Sendable {
        /// A whole request, and its body (also in the request).
        case request(Request, ByteBuffer, HTTP1ConnectionStateMachine.Facts)
        /// Bytes that are not an HTTP/1.1 request: answer 400; the connection then closes.
        case malformed
    }

    /// Where whole requests go (the connection's task), and what tells it no more will come.
    private let requests: (Incoming) -> Void
    private let finished: () -> Void
    private let serverName: String
    private var machine: HTTP1ConnectionStateMachine
    private var context: ChannelHandlerContext?
    /// The pending timer and when it fires.
    private var timer: (task: Scheduled<Void>, at: NIODeadline)?
    /// The `Date` field's value and the second it is for.
    private var date: (second: Int, text: String) = (0, "")

    /// A handler that hands whole requests to `requests` and calls `finished` when the connection reads no more.
    init(
        limits: HTTP1ConnectionStateMachine.Limits, serverName: String,
        requests: @escaping (Incoming) -> Void, finished: @escaping () -> Void
    ) {
        self.requests = requests
        self.finished = finished
        self.serverName = serverName
        machine = HTTP1ConnectionStateMachine(limits: limits, now: .now())
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        armTimer()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        stop()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    private func stop() {
        machine.closedByChannel()
        timer?.task.cancel()
        timer = nil
        finished()
    }

    // MARK: Events

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = NIODeadline.now()
        let actions: HTTP1ConnectionStateMachine.Actions =
            switch unwrapInboundIn(data) {
            case .head(let head): machine.receivedHead(head, now: now)
            case .body(let part): machine.receivedBody(part)
            case .end: machine.receivedEnd(now: now)
            }
        perform(actions)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.close(promise: nil)
            return
        }
        perform(machine.parserFailed(now: .now()))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ChannelShouldQuiesceEvent: perform(machine.quiesce(now: .now()))
        case ChannelEvent.inputClosed: perform(machine.inputClosed(now: .now()))
        default: context.fireUserInboundEventTriggered(event)
        }
    }

    func read(context: ChannelHandlerContext) {
        perform(machine.readRequested())
    }

    /// Raw bytes arrived (``RequestBytesObserver`` sees them before the parser): they may begin a request.
    func bytesArrived() {
        machine.bytesArrived(now: .now())
        armTimer()
    }

    /// Writes the answer to the oldest request in flight. Called by the task, on the event loop.
    func send(_ response: HTTPResponse, body: ByteBuffer, for facts: HTTP1ConnectionStateMachine.Facts) {
        guard let context else { return }
        let bytes = HTTP1ResponseHead.serialize(
            response, body: body, facts: facts, date: currentDate(), serverName: serverName,
            allocator: context.channel.allocator
        )
        machine.answerSent(now: .now())
        armTimer()
        context.writeAndFlush(wrapOutboundOut(bytes)).assumeIsolatedUnsafeUnchecked().whenComplete { _ in
            self.perform(self.machine.answerWritten(now: .now()))
        }
    }

    // MARK: Actions

    private func perform(_ actions: HTTP1ConnectionStateMachine.Actions) {
        if actions.writeContinue {
            context?.writeAndFlush(
                wrapOutboundOut(ByteBuffer(staticString: "HTTP/1.1 100 Continue\r\n\r\n")), promise: nil)
        }
        if let delivery = actions.deliver {
            deliver(delivery)
        }
        if actions.close {
            context?.close(promise: nil)
            return
        }
        if actions.read {
            context?.read()
        }
        armTimer()
    }

    private func deliver(_ delivery: HTTP1ConnectionStateMachine.Delivery) {
        switch delivery {
        case .malformed:
            requests(.malformed)
        case .request(let head, let body, let facts):
            guard let request = try? HTTPRequest(head, secure: false, splitCookie: false) else {
                // A method that is not an HTTP token: not HTTP/1.1 either.
                requests(.malformed)
                return
            }
            requests(.request(Request(head: request, body: RequestBody(buffer: body)), body, facts))
        }
    }

    /// Makes sure a timer fires by the machine's deadline (one timer at a time; a later deadline is checked when the
    /// pending one fires).
    private func armTimer() {
        let deadline = machine.deadline
        guard deadline != .distantFuture, let context else { return }
        if let timer {
            guard deadline < timer.at else { return }
            timer.task.cancel()
        }
        let task = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            perform(machine.timerFired(now: .now()))
        }
        timer = (task, deadline)
    }

    /// Today's `Date` field (RFC 9110 IMF-fixdate), made once a second per connection.
    private func currentDate() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let second = Int(now.tv_sec)
        if second != date.second {
            date = (second, HTTPDate.imfFixdate(second: second))
        }
        return date.text
    }
}

/// Sees the raw bytes of a connection (first in the pipeline) and tells the ``HTTP1ConnectionHandler``, whose
/// header deadline starts with a request's first byte.
final class RequestBytesObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connection: HTTP1ConnectionHandler

    init(connection: HTTP1ConnectionHandler) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if unwrapInboundIn(data).readableBytes > 0 { connection.bytesArrived() }
        context.fireChannelRead(data)
    }
}

/// An answer's bytes: the status line, the route's fields, `Content-Length`, `Date`, `Server`, and `Connection: close`
/// when the connection closes after it, then the body (none for `HEAD`, 1xx, 204 and 304).
enum HTTP1ResponseHead {
    static func serialize(
        _ response: HTTPResponse, body: ByteBuffer, facts: HTTP1ConnectionStateMachine.Facts, date: String,
        serverName: String, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let code = response.status.code
        // RFC 9112 §6.3: 1xx, 204 and 304 answers have no body and no length; a HEAD answer has a length but no body.
        let statusHasBody = code >= 200 && code != 204 && code != 304
        let bodyless = facts.head || !statusHasBody
        var bytes = allocator.buffer(
            capacity: 160 + response.headerFields.count * 48 + (bodyless ? 0 : body.readableBytes)
        )
        bytes.writeStaticString("HTTP/1.1 ")
        bytes.writeString(String(code))
        bytes.writeStaticString(" ")
        bytes.writeString(response.status.reasonPhrase)
        bytes.writeStaticString("\r\n")
        var hasLength = false
        for field in response.headerFields {
            if field.name == .contentLength { hasLength = true }
            bytes.writeString(field.name.rawName)
            bytes.writeStaticString(": ")
            bytes.writeString(field.value)
            bytes.writeStaticString("\r\n")
        }
        if !hasLength, statusHasBody {
            bytes.writeStaticString("Content-Length: ")
            bytes.writeString(String(body.readableBytes))
            bytes.writeStaticString("\r\n")
        }
        bytes.writeStaticString("Date: ")
        bytes.writeString(date)
        bytes.writeStaticString("\r\nServer: ")
        bytes.writeString(serverName)
        bytes.writeStaticString("\r\n")
        if facts.close { bytes.writeStaticString("Connection: close\r\n") }
        bytes.writeStaticString("\r\n")
        if !bodyless {
            var body = body
            bytes.writeBuffer(&body)
        }
        return bytes
    }
}

/// RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func imfFixdate(second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        let weekday = days[Int(parts.tm_wday)]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
