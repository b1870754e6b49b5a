import NIOCore
import NIOHTTP1
import Testing

@testable import LatchkeyServer

/// The HTTP/1 connection's rules with no socket: events in, actions out, time given.
@Suite("HTTP/1 connection state machine")
struct HTTP1ConnectionStateMachineTests {
    typealias Machine = HTTP1ConnectionStateMachine

    static let deadlines = ConnectionDeadlines(
        idle: .seconds(60), header: .seconds(10), body: .seconds(30), write: .seconds(20))
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    static func machine(bodyLimit: Int = 1024, queued: Int = 32) -> Machine {
        Machine(
            limits: Machine.Limits(
                bodyLimit: bodyLimit, deadlines: deadlines, maxRequestsInFlight: 4, maxRequestsQueued: queued),
            now: start
        )
    }

    static func head(
        _ method: HTTPMethod = .GET, _ uri: String = "/healthz", version: HTTPVersion = .http1_1,
        _ fields: [(String, String)] = [("Host", "example.com")]
    ) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: method, uri: uri, headers: HTTPHeaders(fields))
    }

    /// A whole request without a body; returns what its end did.
    @discardableResult
    static func request(_ machine: inout Machine, _ head: HTTPRequestHead = head(), at now: NIODeadline = start)
        -> Machine.Actions
    {
        machine.bytesArrived(now: now)
        let headActions = machine.receivedHead(head, now: now)
        if headActions.deliver != nil { return headActions }
        return machine.receivedEnd(now: now)
    }

    /// The task answers the oldest request and the socket takes the answer at once.
    @discardableResult
    static func answer(_ machine: inout Machine, at now: NIODeadline = start) -> Machine.Actions {
        machine.answerSent(now: now)
        return machine.answerWritten(now: now)
    }

    static func isRequest(_ delivery: Machine.Delivery?, close: Bool = false) -> Bool {
        guard case .request(_, _, let facts) = delivery else { return false }
        return facts.close == close
    }

    // MARK: Order and read-ahead

    @Test func aRequestGoesToTheTaskWhenItsEndComesAndTheIdleDeadlineStartsWhenItIsAnswered() {
        var machine = Self.machine()
        #expect(machine.deadline == Self.start + .seconds(60), "a new connection waits for its first byte")
        machine.bytesArrived(now: Self.start + .seconds(1))
        #expect(machine.deadline == Self.start + .seconds(11), "the head must come within the header deadline")
        #expect(machine.receivedHead(Self.head(), now: Self.start + .seconds(2)) == .none)
        #expect(machine.deadline == Self.start + .seconds(32), "the body must come within the body deadline")
        let end = machine.receivedEnd(now: Self.start + .seconds(3))
        #expect(Self.isRequest(end.deliver))
        #expect(machine.deadline == .distantFuture, "no read deadline while the server answers")
        machine.answerSent(now: Self.start + .seconds(4))
        #expect(machine.deadline == Self.start + .seconds(24), "the answer must be taken within the write deadline")
        #expect(machine.answerWritten(now: Self.start + .seconds(5)) == .none)
        #expect(machine.deadline == Self.start + .seconds(65), "idle again")
    }

    @Test func readingStopsWithFourInFlightAndQueuedRequestsGoOutAsAnswersAreWritten() {
        var machine = Self.machine()
        var delivered = 0
        for _ in 0..<6 where Self.isRequest(Self.request(&machine).deliver) { delivered += 1 }
        #expect(delivered == 4)
        #expect(machine.pending == (inFlight: 4, queued: 2))
        #expect(machine.readRequested() == .none, "held while four wait")
        var actions = Self.answer(&machine)
        #expect(Self.isRequest(actions.deliver), "the fifth goes in the first's place")
        #expect(!actions.read, "still four in flight and one queued")
        actions = Self.answer(&machine)
        #expect(Self.isRequest(actions.deliver), "the sixth")
        #expect(!actions.read)
        actions = Self.answer(&machine)
        #expect(actions.deliver == nil)
        #expect(actions.read, "three in flight and nothing queued: the held read goes on")
        #expect(machine.readRequested().read)
    }

    @Test func aClientPipeliningMoreThanTheQueueTakesGetsThoseAnswersAndTheConnectionCloses() {
        var machine = Self.machine(queued: 8)
        for _ in 0..<40 { Self.request(&machine) }
        #expect(machine.pending == (inFlight: 4, queued: 8), "the rest was not taken")
        var closed = false
        for _ in 0..<12 where Self.answer(&machine).close { closed = true }
        #expect(closed, "closed once the twelve taken are answered")
    }

    @Test func aClientThatStopsReadingIsClosedByTheWriteDeadline() {
        var machine = Self.machine()
        for _ in 0..<1000 { Self.request(&machine) }
        #expect(machine.pending.inFlight == 4, "at most four answers exist at once")
        #expect(machine.pending.queued == 32)
        for _ in 0..<4 { machine.answerSent(now: Self.start) }
        #expect(machine.timerFired(now: Self.start + .seconds(19)) == .none)
        // The client takes one answer: the deadline moves.
        #expect(machine.answerWritten(now: Self.start + .seconds(19)).deliver != nil)
        #expect(machine.timerFired(now: Self.start + .seconds(21)) == .none)
        #expect(machine.timerFired(now: Self.start + .seconds(39)).close, "twenty seconds with no answer taken")
    }

    // MARK: Bodies

    @Test func aBodyOverTheLimitByItsLengthGoesToTheTaskAtOnceAndTheRestIsDropped() {
        var machine = Self.machine(bodyLimit: 10)
        machine.bytesArrived(now: Self.start)
        let actions = machine.receivedHead(
            Self.head(.POST, "/x", [("Host", "a"), ("Content-Length", "11")]), now: Self.start)
        guard case .request(_, let body, _) = actions.deliver else {
            Issue.record("not delivered: \(actions)")
            return
        }
        #expect(body.readableBytes == 0)
        #expect(machine.receivedBody(ByteBuffer(string: "01234567890")) == .none, "dropped")
        #expect(machine.receivedEnd(now: Self.start) == .none)
        #expect(Self.answer(&machine) == .none)
        #expect(Self.isRequest(Self.request(&machine).deliver), "the next request is served")
    }

    @Test func aChunkedBodyThatGrowsOverTheLimitGoesToTheTaskWithWhatCame() {
        var machine = Self.machine(bodyLimit: 10)
        _ = machine.receivedHead(
            Self.head(.POST, "/x", [("Host", "a"), ("Transfer-Encoding", "chunked")]), now: Self.start)
        #expect(machine.receivedBody(ByteBuffer(string: "012345")) == .none)
        let actions = machine.receivedBody(ByteBuffer(string: "6789ab"))
        guard case .request(_, let body, _) = actions.deliver else {
            Issue.record("not delivered: \(actions)")
            return
        }
        #expect(body.readableBytes == 12)
        #expect(machine.receivedBody(ByteBuffer(string: "more")) == .none)
        #expect(machine.receivedEnd(now: Self.start) == .none)
    }

    @Test func expectContinueIsAnsweredBeforeTheBodyOnHTTP11Only() {
        var machine = Self.machine()
        let fields = [("Host", "a"), ("Content-Length", "2"), ("Expect", "100-continue")]
        #expect(machine.receivedHead(Self.head(.POST, "/x", fields), now: Self.start).writeContinue)
        var old = Self.machine()
        #expect(!old.receivedHead(Self.head(.POST, "/x", version: .http1_0, fields), now: Self.start).writeContinue)
    }

    // MARK: What is not HTTP/1.1

    @Test(
        "a head RFC 9112 does not allow is answered 400 and the connection closes",
        arguments: [
            [],
            [("Host", "a"), ("Host", "b")],
            [("Host", "a"), ("Transfer-Encoding", "gzip, chunked")],
            [("Host", "a"), ("Transfer-Encoding", "gzip")],
            [("Host", "a"), ("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")],
        ] as [[(String, String)]])
    func invalidHeads(_ fields: [(String, String)]) {
        var machine = Self.machine()
        let actions = machine.receivedHead(Self.head(.POST, "/x", fields), now: Self.start)
        #expect(actions.deliver == .malformed)
        #expect(machine.readRequested() == .none, "nothing more is read")
        #expect(Self.answer(&machine).close)
    }

    @Test func anHTTP10RequestWithoutHostIsServedAndClosed() {
        var machine = Self.machine()
        let actions = Self.request(&machine, Self.head(version: .http1_0, []))
        #expect(Self.isRequest(actions.deliver, close: true))
        #expect(Self.answer(&machine).close)
    }

    @Test func chunkedAloneIsAccepted() {
        var machine = Self.machine()
        let actions = Self.request(&machine, Self.head(.POST, "/x", [("Host", "a"), ("Transfer-Encoding", "Chunked")]))
        #expect(Self.isRequest(actions.deliver))
    }

    @Test func bytesThatAreNotHTTPAreAnswered400OnceAndNothingAfter() {
        var machine = Self.machine()
        #expect(machine.parserFailed(now: Self.start).deliver == .malformed)
        #expect(machine.parserFailed(now: Self.start) == .none)
        #expect(Self.answer(&machine).close)
    }

    /// Found by the http1-request fuzz target: an HTTP/1.0 request whose body is over the limit, then bytes the parser
    /// refuses (here, the client closing mid-body). The refused request was the connection's last; nothing follows it.
    @Test func aBadRestOfTheLastRequestsRefusedBodyEndsTheConnectionWithoutA400() {
        var machine = Self.machine(bodyLimit: 256)
        let head = Self.head(.POST, "/v1/x", version: .http1_0, [("Host", "a"), ("Content-Length", "300")])
        #expect(Self.isRequest(Self.request(&machine, head).deliver, close: true))
        #expect(machine.parserFailed(now: Self.start) == .none)
        #expect(Self.answer(&machine).close)
    }

    @Test func aBadRestOfAKeptAliveRequestsRefusedBodyIsAnswered400() {
        var machine = Self.machine(bodyLimit: 256)
        let head = Self.head(.POST, "/v1/x", [("Host", "a"), ("Content-Length", "300")])
        #expect(Self.isRequest(Self.request(&machine, head).deliver))
        #expect(machine.parserFailed(now: Self.start).deliver == .malformed)
        #expect(Self.answer(&machine) == .none)
        #expect(Self.answer(&machine).close)
    }

    // MARK: Closing

    @Test func connectionCloseIsAnsweredThenClosed() {
        var machine = Self.machine()
        let actions = Self.request(&machine, Self.head(.GET, "/", [("Host", "a"), ("Connection", "close")]))
        #expect(Self.isRequest(actions.deliver, close: true))
        #expect(Self.request(&machine) == .none, "nothing after the last request")
        #expect(Self.answer(&machine).close)
    }

    @Test func aHalfClosedClientGetsItsAnswerAndThenTheConnectionCloses() {
        var machine = Self.machine()
        Self.request(&machine)
        #expect(machine.inputClosed(now: Self.start) == .none)
        #expect(Self.answer(&machine).close)
        var idle = Self.machine()
        #expect(idle.inputClosed(now: Self.start).close, "nothing under way: at once")
    }

    @Test func quiescingAnswersWhatWasReadIncludingAHeadThatCame() {
        var idle = Self.machine()
        #expect(idle.quiesce(now: Self.start).close)
        var machine = Self.machine()
        Self.request(&machine)
        _ = machine.receivedHead(Self.head(.POST, "/x", [("Host", "a"), ("Content-Length", "2")]), now: Self.start)
        #expect(machine.quiesce(now: Self.start) == .none)
        #expect(machine.receivedBody(ByteBuffer(string: "{}")) == .none)
        #expect(
            Self.isRequest(machine.receivedEnd(now: Self.start).deliver, close: true), "the request whose head came")
        #expect(!Self.answer(&machine).close)
        #expect(Self.answer(&machine).close)
    }

    @Test func eachReadDeadlineClosesWhenItPasses() {
        var idle = Self.machine()
        #expect(idle.timerFired(now: Self.start + .seconds(59)) == .none)
        #expect(idle.timerFired(now: Self.start + .seconds(60)).close)

        var slowHead = Self.machine()
        slowHead.bytesArrived(now: Self.start)
        #expect(slowHead.timerFired(now: Self.start + .seconds(10)).close)

        var slowBody = Self.machine()
        _ = slowBody.receivedHead(Self.head(.POST, "/x", [("Host", "a"), ("Content-Length", "5")]), now: Self.start)
        #expect(slowBody.timerFired(now: Self.start + .seconds(29)) == .none)
        #expect(slowBody.timerFired(now: Self.start + .seconds(30)).close)
    }

    @Test func theServersOwnWorkHasNoDeadline() {
        var machine = Self.machine()
        Self.request(&machine)
        #expect(machine.timerFired(now: Self.start + .seconds(3600)) == .none)
    }
}
