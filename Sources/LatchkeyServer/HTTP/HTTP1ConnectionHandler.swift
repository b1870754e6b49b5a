import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// One HTTP/1 connection's state, on its event loop: it assembles the decoded parts of each request into a whole
/// `Request` for the connection's task (``HTTP1ServerChannel``), and writes each response back as one buffer.
///
/// - **Order and read-ahead.** Requests go to the task in order and are answered in order. While
///   ``maxRequestsInFlight`` are waiting for their answers, the handler stops reading the socket, so a client that
///   pipelines makes the server hold no more than those and what the reads so far brought.
/// - **Body limit.** A body whose `Content-Length` is over the limit is not kept: the request goes to the task at once
///   with an empty body (the route's body limit answers 413 from the header). A chunked body that grows over the limit
///   goes to the task as soon as it does, with what came so far. Either way the rest of the body is read and dropped,
///   within the body deadline, and the connection then serves its next request.
/// - **Closing.** The connection closes once every request read has been answered, when a request asks for it
///   (`Connection: close`, or HTTP/1.0), when the server quiesces for a graceful shutdown, when the client closes its
///   side, or after a request that is not valid HTTP/1.1 (answered 400).
final class HTTP1ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What the connection's task receives.
    enum Incoming: Sendable {
        /// A whole request, and its body (also in the request).
        case request(Request, ByteBuffer, RequestFacts)
        /// Bytes that are not an HTTP/1.1 request: answer 400; the connection then closes.
        case malformed
    }

    /// What the answer to a request depends on besides the response.
    struct RequestFacts: Sendable {
        /// The connection closes after this answer, which says so (`Connection: close`).
        var close: Bool
        /// A `HEAD` request: the answer has no body.
        var head: Bool

        static let closing = RequestFacts(close: true, head: false)
    }

    /// How many requests may wait for their answers before the handler stops reading.
    static let maxRequestsInFlight = 4

    private enum Reading {
        /// Between requests.
        case idle
        /// A request's head has come; its body is being gathered.
        case body(HTTPRequestHead, ByteBuffer?)
        /// The rest of a request that has already gone to the task (its body over the limit), read and dropped.
        case discarding
        /// No more requests are read on this connection.
        case done
    }

    private let requests: AsyncStream<Incoming>.Continuation
    private let timer: RequestReadTimer
    private let bodyLimit: Int
    private let serverName: String
    private var reading = Reading.idle
    /// Requests (and a 400 for a malformed one) handed to the task and not yet answered.
    private var inFlight = 0
    /// Close once nothing is in flight.
    private var closing = false
    /// The channel asked to read while the handler was holding reads.
    private var readHeld = false
    private var context: ChannelHandlerContext?
    /// The `Date` field's value and the second it is for.
    private var date: (second: Int, text: String) = (0, "")

    init(requests: AsyncStream<Incoming>.Continuation, timer: RequestReadTimer, bodyLimit: Int, serverName: String) {
        self.requests = requests
        self.timer = timer
        self.bodyLimit = bodyLimit
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        requests.finish()
    }

    func channelInactive(context: ChannelHandlerContext) {
        reading = .done
        timer.cancel()
        requests.finish()
        context.fireChannelInactive()
    }

    // MARK: Reading requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), reading) {
        case (.head(let head), .idle):
            timer.headReceived()
            if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > bodyLimit {
                // Not read: the route answers 413 from the header.
                deliver(head, body: nil, refused: true)
                return
            }
            reading = .body(head, nil)
            if head.version == .http1_1, head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                context.writeAndFlush(
                    wrapOutboundOut(ByteBuffer(staticString: "HTTP/1.1 100 Continue\r\n\r\n")), promise: nil)
            }
        case (.body(var part), .body(let head, let gathered)):
            // The enum lets go of the buffer first, so that appending to it need not copy it.
            reading = .idle
            var body = gathered ?? ByteBuffer()
            body.writeBuffer(&part)
            if body.readableBytes > bodyLimit {
                // The route's body limit refuses it; the rest is not kept.
                deliver(head, body: body, refused: true)
            } else {
                reading = .body(head, body)
            }
        case (.end, .body(let head, let body)):
            timer.endReceived()
            deliver(head, body: body, refused: false)
        case (.end, .discarding):
            timer.endReceived()
            reading = closing ? .done : .idle
            if inFlight == 0 {
                // The refused request was answered while its body was still coming.
                closeIfDone()
                timer.allAnswered()
            }
        case (.head, _), (.body, _), (.end, _):
            // The rest of a refused body, or anything after a connection's last request.
            break
        }
    }

    /// Hands a whole request to the task. A refused request (its body over the limit) goes with what came of its body,
    /// and the rest is read and dropped.
    private func deliver(_ head: HTTPRequestHead, body: ByteBuffer?, refused: Bool) {
        let request: HTTPRequest
        do {
            request = try HTTPRequest(plainHTTP: head)
        } catch {
            malformed()
            return
        }
        // HTTP/1.0 closes after each answer, even with `Connection: keep-alive` (the answer is HTTP/1.1's).
        let close = closing || !head.isKeepAlive || head.version != .http1_1
        inFlight += 1
        closing = closing || close
        reading = refused ? .discarding : close ? .done : .idle
        let facts = RequestFacts(close: close, head: head.method == .HEAD)
        let body = body ?? ByteBuffer()
        requests.yield(.request(Request(head: request, body: RequestBody(buffer: body)), body, facts))
    }

    private func malformed() {
        inFlight += 1
        closing = true
        reading = .done
        requests.yield(.malformed)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.close(promise: nil)
            return
        }
        // After the connection's last request there is nothing to answer: it closes once that one is answered.
        if case .done = reading { return }
        malformed()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ChannelShouldQuiesceEvent:
            // Graceful shutdown: answer what has been read and a request whose head has come, then close.
            closing = true
            if case .idle = reading { reading = .done }
            closeIfDone()
        case ChannelEvent.inputClosed:
            // The client sends no more, so a request not read whole never will be.
            closing = true
            reading = .done
            closeIfDone()
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Closes the connection when it is closing, reads no more requests and has answered every one.
    private func closeIfDone() {
        guard closing, inFlight == 0, case .done = reading else { return }
        context?.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if inFlight >= Self.maxRequestsInFlight {
            readHeld = true
        } else if case .done = reading {
            // No more requests: nothing to read until the connection closes.
            readHeld = true
        } else {
            context.read()
        }
    }

    // MARK: Writing responses

    /// Writes the answer to the oldest request in flight. Called by the task, on the event loop.
    func send(_ response: HTTPResponse, body: ByteBuffer, for request: RequestFacts) {
        guard let context else { return }
        let bytes = serialize(response, body: body, facts: request, allocator: context.channel.allocator)
        context.writeAndFlush(wrapOutboundOut(bytes)).assumeIsolatedUnsafeUnchecked().whenComplete { _ in
            self.answered()
        }
    }

    private func answered() {
        inFlight -= 1
        if inFlight == 0 {
            closeIfDone()
            timer.allAnswered()
        }
        releaseRead()
    }

    private func releaseRead() {
        guard readHeld, inFlight < Self.maxRequestsInFlight, let context else { return }
        readHeld = false
        context.read()
    }

    /// The response as HTTP/1.1 bytes: the status line, the route's fields, `Content-Length`, `Date`, `Server`, and
    /// `Connection: close` when the connection closes after it, then the body (none for `HEAD`, 1xx, 204 and 304).
    private func serialize(
        _ response: HTTPResponse, body: ByteBuffer, facts: RequestFacts, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let code = response.status.code
        // RFC 9112 §6.3: 1xx, 204 and 304 answers have no body and no length; a HEAD answer has a length but no body.
        let statusHasBody = code >= 200 && code != 204 && code != 304
        let bodyless = facts.head || !statusHasBody
        var bytes = allocator.buffer(
            capacity: 160 + response.headerFields.count * 48 + (bodyless ? 0 : body.readableBytes))
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
        bytes.writeString(currentDate())
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
