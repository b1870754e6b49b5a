import NIOCore
import NIOHTTP1

/// The rules of one HTTP/1 connection, as a value: each thing that happens on the connection goes in as an event, and
/// what the connection must do comes out as ``Actions``. ``HTTP1ConnectionHandler`` feeds it and does what it says;
/// tests drive it with no socket, as AsyncHTTPClient and SwiftNIO test their connection state machines.
///
/// - **Order and read-ahead.** Requests go to the connection's task in order and are answered in order. At most
///   ``Limits/maxRequestsInFlight`` requests are with the task or waiting for their answers to be written; the rest of
///   what one read brought waits here, at most ``Limits/maxRequestsQueued`` of them (a client pipelining more gets the
///   answers to those and the connection closes). While the task has its fill, the socket is not read.
/// - **Body limit.** A body whose `Content-Length` is over the limit is not kept: the request goes to the task at once
///   with an empty body (the route's body limit answers 413 from the header). A chunked body that grows over the limit
///   goes to the task as soon as it does. Either way the rest of the body is read and dropped, within the body
///   deadline, and the connection then serves its next request.
/// - **What is not HTTP/1.1** (RFC 9112): bytes the parser refuses, an HTTP/1.1 request with no `Host` or with two,
///   and a `Transfer-Encoding` other than `chunked` alone. Such a request is answered 400 and the connection closes.
/// - **Deadlines.** A connection with nothing under way closes after the idle deadline; a request's head must come
///   within the header deadline of its first byte, and its body within the body deadline of the head. While the
///   server works on requests there is no deadline, but an answer handed to the socket must be taken by the client
///   within the write deadline of the last answer it took: a client that stops reading is closed.
/// - **Closing.** The connection closes once every request read has been answered, when a request asks for it
///   (`Connection: close`, or HTTP/1.0), when the server quiesces for a graceful shutdown, when the client closes its
///   side, after a request that is not HTTP/1.1, or when a deadline passes.
struct HTTP1ConnectionStateMachine {
    /// The bounds a connection keeps to.
    struct Limits: Sendable {
        /// The largest body kept for a route.
        var bodyLimit: Int
        /// The deadlines.
        var deadlines: ConnectionDeadlines
        /// How many requests may be with the task or have answers unwritten before the socket is no longer read.
        var maxRequestsInFlight = 4
        /// How many parsed requests may wait for a place in flight before the connection takes no more.
        var maxRequestsQueued = 32
    }

    /// What the connection's task receives.
    enum Delivery: Equatable {
        /// A whole request; its body is what the connection kept (empty when refused by its length).
        case request(HTTPRequestHead, ByteBuffer, Facts)
        /// Bytes that are not an HTTP/1.1 request: answer 400; the connection then closes.
        case malformed
    }

    /// What the answer to a request depends on besides the response.
    struct Facts: Equatable, Sendable {
        /// The connection closes after this answer, which says so (`Connection: close`).
        var close: Bool
        /// A `HEAD` request: the answer has no body.
        var head: Bool

        static let closing = Facts(close: true, head: false)
    }

    /// What the connection must do after an event.
    struct Actions: Equatable {
        /// A request (or a malformed one) for the task.
        var deliver: Delivery?
        /// Write `100 Continue` now.
        var writeContinue = false
        /// Read from the socket (the handler held a read that may now go ahead).
        var read = false
        /// Close the connection.
        var close = false

        static let none = Actions()
    }

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

    /// Which read deadline applies.
    private enum Phase {
        /// No request under way: the idle deadline.
        case waiting
        /// From a request's first byte to the end of its head.
        case head
        /// From the end of the head to the end of the body.
        case body
        /// Requests read and being answered: no read deadline (the server's own work is not the client's).
        case answering
    }

    let limits: Limits
    private var reading = Reading.idle
    private var phase = Phase.waiting
    private var readDeadline: NIODeadline
    /// Requests delivered to the task whose answers are not yet written.
    private var inFlight = 0
    /// Answers handed to the socket and not yet written, and when the client last took one.
    private var unwritten = 0
    private var lastWriteProgress = NIODeadline.distantPast
    /// Parsed requests waiting for a place in flight.
    private var queued: [Delivery] = []
    private var queuedStart = 0
    /// Close once everything read is answered.
    private var closing = false
    /// The handler asked to read while reads were held.
    private var readHeld = false
    private var closed = false

    /// A new connection, accepted at `now`: its first request must begin within the idle deadline.
    init(limits: Limits, now: NIODeadline) {
        self.limits = limits
        readDeadline = now + TimeAmount(limits.deadlines.idle)
    }

    /// When the connection must be closed unless something happens first; `distantFuture` for never.
    var deadline: NIODeadline {
        let write = unwritten > 0 ? lastWriteProgress + TimeAmount(limits.deadlines.write) : .distantFuture
        return Swift.min(readDeadline, write)
    }

    /// How many requests are with the task or waiting for their answers to be written, and how many wait for a place.
    var pending: (inFlight: Int, queued: Int) { (inFlight, queued.count - queuedStart) }

    // MARK: Reading

    /// Bytes came in: when no request is being read, they begin one, whose head must come within the header deadline.
    mutating func bytesArrived(now: NIODeadline) {
        if case .done = reading { return }
        guard phase == .waiting || phase == .answering else { return }
        phase = .head
        readDeadline = now + TimeAmount(limits.deadlines.header)
    }

    /// A request's head was parsed.
    mutating func receivedHead(_ head: HTTPRequestHead, now: NIODeadline) -> Actions {
        guard case .idle = reading else { return .none }
        phase = .body
        readDeadline = now + TimeAmount(limits.deadlines.body)
        guard Self.isValid(head) else { return malformed() }
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limits.bodyLimit {
            // Not read: the route answers 413 from the header.
            return complete(head, body: nil, refused: true)
        }
        reading = .body(head, nil)
        var actions = Actions()
        actions.writeContinue =
            head.version == .http1_1 && head.headers.first(name: "expect")?.lowercased() == "100-continue"
        return actions
    }

    /// A part of a request's body was parsed.
    mutating func receivedBody(_ part: ByteBuffer) -> Actions {
        guard case .body(let head, let gathered) = reading else { return .none }
        // Let go of the buffer first, so that appending to it need not copy it.
        reading = .idle
        var body = gathered ?? ByteBuffer()
        var part = part
        body.writeBuffer(&part)
        if body.readableBytes > limits.bodyLimit {
            // The route's body limit refuses it; the rest is not kept.
            return complete(head, body: body, refused: true)
        }
        reading = .body(head, body)
        return .none
    }

    /// A request's end was parsed.
    mutating func receivedEnd(now: NIODeadline) -> Actions {
        switch reading {
        case .body(let head, let body):
            phase = .answering
            readDeadline = .distantFuture
            return complete(head, body: body, refused: false)
        case .discarding:
            phase = .answering
            readDeadline = .distantFuture
            reading = closing ? .done : .idle
            return settle(now: now)
        case .idle, .done:
            return .none
        }
    }

    /// The parser refused the bytes: answered 400 unless the connection reads no more requests anyway (among them, the
    /// dropped rest of a refused request that was the connection's last: its answer already says the connection closes).
    mutating func parserFailed(now: NIODeadline) -> Actions {
        switch reading {
        case .done:
            return .none
        case .discarding where closing:
            reading = .done
            return settle(now: now)
        case .idle, .body, .discarding:
            return malformed()
        }
    }

    // MARK: The connection

    /// The server is shutting down gracefully: requests read (and one whose head has come) are answered, then the
    /// connection closes.
    mutating func quiesce(now: NIODeadline) -> Actions {
        closing = true
        if case .idle = reading { reading = .done }
        return settle(now: now)
    }

    /// The client closed its sending side: a request not read whole never will be.
    mutating func inputClosed(now: NIODeadline) -> Actions {
        closing = true
        reading = .done
        return settle(now: now)
    }

    /// The connection closed.
    mutating func closedByChannel() {
        closed = true
        reading = .done
        readDeadline = .distantFuture
        unwritten = 0
    }

    /// The channel wants to read from the socket: go ahead, or hold the read until the task has room.
    mutating func readRequested() -> Actions {
        if inFlight >= limits.maxRequestsInFlight || queuedStart < queued.count {
            readHeld = true
            return .none
        }
        if case .done = reading {
            // No more requests: nothing to read until the connection closes.
            readHeld = true
            return .none
        }
        return Actions(read: true)
    }

    // MARK: Answers

    /// An answer was handed to the socket.
    mutating func answerSent(now: NIODeadline) {
        if unwritten == 0 { lastWriteProgress = now }
        unwritten += 1
    }

    /// The socket took an answer: the next queued request may go to the task, and reads may go on.
    mutating func answerWritten(now: NIODeadline) -> Actions {
        guard !closed else { return .none }
        unwritten -= 1
        inFlight -= 1
        lastWriteProgress = now
        var actions = settle(now: now)
        if actions.deliver == nil, queuedStart < queued.count {
            actions.deliver = queued[queuedStart]
            queuedStart += 1
            inFlight += 1
            if queuedStart == queued.count {
                queued.removeAll(keepingCapacity: true)
                queuedStart = 0
            }
        }
        if readHeld, inFlight < limits.maxRequestsInFlight, queuedStart == queued.count {
            if case .done = reading {
            } else {
                readHeld = false
                actions.read = true
            }
        }
        return actions
    }

    /// The timer set for ``deadline`` fired: close when a deadline has passed.
    mutating func timerFired(now: NIODeadline) -> Actions {
        guard !closed, deadline <= now else { return .none }
        closed = true
        return Actions(close: true)
    }

    // MARK: Rules

    /// RFC 9112 §3.2 and §6.1: an HTTP/1.1 request has exactly one `Host`, and the only transfer coding taken is
    /// `chunked` alone (a server that does not understand a coding answers 501 or 400; this one answers 400).
    static func isValid(_ head: HTTPRequestHead) -> Bool {
        let hosts = head.headers[canonicalForm: "host"].count
        if hosts > 1 || (hosts == 0 && head.version == .http1_1) { return false }
        let codings = head.headers[canonicalForm: "transfer-encoding"]
        return codings.isEmpty || (codings.count == 1 && codings[0].lowercased() == "chunked")
    }

    /// A whole request (or a refused one, whose rest is dropped) for the task, now or when there is room.
    private mutating func complete(_ head: HTTPRequestHead, body: ByteBuffer?, refused: Bool) -> Actions {
        // HTTP/1.0 closes after each answer, even with `Connection: keep-alive` (the answer is HTTP/1.1's).
        let close = closing || !head.isKeepAlive || head.version != .http1_1
        closing = closing || close
        reading = refused ? .discarding : close ? .done : .idle
        let facts = Facts(close: close, head: head.method == .HEAD)
        return deliverOrQueue(.request(head, body ?? ByteBuffer(), facts))
    }

    private mutating func malformed() -> Actions {
        closing = true
        reading = .done
        return deliverOrQueue(.malformed)
    }

    private mutating func deliverOrQueue(_ delivery: Delivery) -> Actions {
        if inFlight < limits.maxRequestsInFlight, queuedStart == queued.count {
            inFlight += 1
            return Actions(deliver: delivery)
        }
        queued.append(delivery)
        if queued.count - queuedStart >= limits.maxRequestsQueued {
            // Enough: the client gets the answers to what it sent so far, and then the connection closes.
            closing = true
            reading = .done
        }
        return .none
    }

    /// After a request is answered or the connection stops reading: the idle deadline when nothing is left, and the
    /// close when the connection is closing and done.
    private mutating func settle(now: NIODeadline) -> Actions {
        guard inFlight == 0, queuedStart == queued.count else { return .none }
        if closing, case .done = reading {
            closed = true
            return Actions(close: true)
        }
        if phase == .answering {
            phase = .waiting
            readDeadline = now + TimeAmount(limits.deadlines.idle)
        }
        return .none
    }
}
