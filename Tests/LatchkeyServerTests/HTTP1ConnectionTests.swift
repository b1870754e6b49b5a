import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import ServiceLifecycle
import Synchronization
import Testing

@testable import LatchkeyServer

/// The server's own HTTP/1 connection layer (`HTTP1ServerChannel`, `HTTP1ConnectionHandler`), over raw TCP
/// connections to a live server: whole requests answered in order, read-ahead held and released, every way a
/// connection closes, the body limit before the body is read, `Expect: 100-continue`, `HEAD`, and the `Date` field.
@Suite("HTTP/1 connections: order, closing, limits")
struct HTTP1ConnectionTests {
    static let health = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
    static let association = "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: localhost\r\n\r\n"

    /// The settings of these tests: a 1 KiB body limit.
    static var settings: ServerSettings {
        var settings = ServerSettings.test
        settings.bodyLimit = 1024
        return settings
    }

    /// Runs `body` over one raw connection to a fresh server, with the connection's replies as they arrive.
    private static func withConnection(
        _ body: @escaping @Sendable (RawConnection, inout AsyncStream<String>.Iterator) async throws -> Void
    ) async throws {
        try await withServer(.sqlite, settings: settings) { server in
            let connection = try await RawConnection.open(port: try #require(server.client.port))
            var replies = try await connection.replies()
            try await body(connection, &replies)
        }
    }

    /// The head of a request for sign-in options with `fields` (each ending in CRLF) and its blank line.
    static func optionsHead(_ fields: String) -> String {
        "POST /v1/passkeys/authentication/options HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\(fields)\r\n"
    }

    /// Sends a health check on `connection` and expects its answer.
    private static func expectServed(
        after bytes: String = "", on connection: RawConnection, _ replies: inout AsyncStream<String>.Iterator
    ) async throws {
        try await connection.send(bytes + health)
        let text = await RawConnection.reply(containing: #"{"status":"ok"}"#, from: &replies)
        #expect(text.contains("HTTP/1.1 200 OK\r\n"), "\(text)")
    }

    /// What arrives until `complete` says it is all there, or the connection ends.
    private static func read(from replies: inout AsyncStream<String>.Iterator, until complete: (String) -> Bool) async
        -> String
    {
        var text = ""
        while !complete(text), let chunk = await replies.next() { text += chunk }
        return text
    }

    private static func count(_ marker: String, in text: String) -> Int {
        text.components(separatedBy: marker).count - 1
    }

    @Test func pipelinedRequestsAreAnsweredInOrderPastTheReadAhead() async throws {
        try await Self.withConnection { connection, iterator in
            // Ten requests in one write: more than the four the handler reads ahead of their answers.
            let sent = (0..<10).map { $0 % 3 == 0 ? Self.association : Self.health }
            try await connection.send(sent.joined())
            let text = await Self.read(from: &iterator) {
                Self.count(#"{"status":"ok"}"#, in: $0) == 6 && Self.count("webcredentials", in: $0) == 4
            }
            let kinds = text.components(separatedBy: "HTTP/1.1 200 OK").dropFirst().map {
                $0.contains("webcredentials") ? "a" : "h"
            }
            #expect(kinds.joined() == "ahhahhahha", "\(text)")
        }
    }

    /// The read hold on its own, over an embedded channel: reads pass through a counter in front of the decoder.
    @Test func readingStopsWhileFourRequestsWaitAndResumesWhenOneIsAnswered() throws {
        let channel = EmbeddedChannel()
        let reads = ReadCounter()
        let (requests, continuation) = AsyncStream.makeStream(of: HTTP1ConnectionHandler.Incoming.self)
        let deadlines = ConnectionDeadlines(
            idle: .seconds(60), header: .seconds(10), body: .seconds(30), write: .seconds(30))
        let handler = HTTP1ConnectionHandler(
            limits: .init(bodyLimit: 1024, deadlines: deadlines), serverName: "Latchkey",
            requests: { continuation.yield($0) }, finished: { continuation.finish() }
        )
        try channel.pipeline.syncOperations.addHandlers([reads, ByteToMessageHandler(HTTPRequestDecoder()), handler])
        let answer = {
            handler.send(HTTPResponse(status: .ok), body: ByteBuffer(), for: .init(close: false, head: false))
        }

        try channel.writeInbound(ByteBuffer(string: String(repeating: Self.health, count: 3)))
        channel.read()
        #expect(reads.count == 1, "three waiting: the read goes on")
        try channel.writeInbound(ByteBuffer(string: String(repeating: Self.health, count: 2)))
        channel.read()
        #expect(reads.count == 1, "five waiting: the read is held")
        answer()
        #expect(reads.count == 1, "four waiting: still held")
        answer()
        #expect(reads.count == 2, "three waiting: the held read goes on")
        answer()
        #expect(reads.count == 2, "no read was held, none is made")
        #expect(
            try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) }?.hasPrefix("HTTP/1.1 200 OK\r\n")
                == true)
        _ = try channel.finish()
        _ = requests
    }

    @Test(
        "a request that ends its connection is answered, then the connection closes",
        arguments: [
            "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", "GET /healthz HTTP/1.0\r\n\r\n",
            "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        ]
    )
    func aLastRequestIsAnsweredThenTheConnectionCloses(_ request: String) async throws {
        try await Self.withConnection { connection, iterator in
            try await connection.send(request)
            let text = await RawConnection.reply(containing: #"{"status":"ok"}"#, from: &iterator)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.contains("\r\nConnection: close\r\n"), "\(text)")
            #expect(await connection.closedWithin(.seconds(5)) != nil)
        }
    }

    @Test(
        "bytes that are not HTTP, or a head over the limits, are answered 400, then the connection closes",
        arguments: [
            "NOT HTTP AT ALL\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + String(repeating: "X-Field: 1\r\n", count: 1001) + "\r\n",
            "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: " + String(repeating: "a", count: 81 * 1024)
                + "\r\n\r\n",
        ]
    )
    func badBytesAreAnswered400ThenTheConnectionCloses(_ bad: String) async throws {
        try await Self.withConnection { connection, iterator in
            // One good request first: it is answered, then the bad bytes after it.
            try await connection.send(Self.health + bad)
            let text = await RawConnection.reply(containing: "request.invalid", from: &iterator)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
            let refusal = try #require(text.range(of: "HTTP/1.1 400 Bad Request\r\n"), "\(text)")
            let body = try #require(text[refusal.lowerBound...].components(separatedBy: "\r\n\r\n").last)
            let error = try JSONDecoder().decode(APIErrorBody.self, from: Data(body.utf8))
            #expect(error.error.code == "request.invalid", "\(text)")
            #expect(await connection.closedWithin(.seconds(5)) != nil)
        }
    }

    @Test(
        "RFC 9112: no Host, two, or a transfer coding other than chunked alone is answered 400, then the connection closes",
        arguments: [
            "POST /v1/passkeys/authentication/options HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            "GET /healthz HTTP/1.1\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: example.com\r\n\r\n",
        ]
    )
    func aHeadRFC9112RefusesIsAnswered400(_ request: String) async throws {
        try await Self.withConnection { connection, iterator in
            try await connection.send(request)
            let text = await RawConnection.reply(containing: "request.invalid", from: &iterator)
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(text)")
            #expect(await connection.closedWithin(.seconds(5)) != nil)
        }
    }

    @Test func anAddressPastTheConnectionCapIsClosedAsItConnects() async throws {
        var settings = Self.settings
        settings.maxConnectionsPerAddress = 4
        try await withServer(.sqlite, settings: settings) { server in
            let port = try #require(server.client.port)
            // Eight connections from one address (the test's own client may hold one more): four at most are served,
            // the rest are closed without a word.
            var served: [RawConnection] = []
            var refused = 0
            for _ in 0..<8 {
                // A refused connection may be closed before the test's reader is in place.
                let connection = try await RawConnection.open(port: port)
                guard var replies = try? await connection.replies() else {
                    refused += 1
                    continue
                }
                try? await connection.send(Self.health)
                let text = await RawConnection.reply(containing: #"{"status":"ok"}"#, from: &replies)
                if text.contains("200 OK") { served.append(connection) } else { refused += 1 }
            }
            #expect(served.count <= 4 && served.count >= 3, "served \(served.count)")
            #expect(refused == 8 - served.count)
            // One closes: a new connection takes its place.
            try await served[0].channel.close()
            try await Task.sleep(for: .milliseconds(200))
            let next = try await RawConnection.open(port: port)
            var replies = try await next.replies()
            try await Self.expectServed(on: next, &replies)
        }
    }

    @Test func aBodyOverTheLimitByItsLengthIsRefusedBeforeItIsSentAndDropped() async throws {
        try await Self.withConnection { connection, iterator in
            try await connection.send(Self.optionsHead("Content-Length: 100000\r\n"))
            let text = await RawConnection.reply(containing: "request.tooLarge", from: &iterator)
            #expect(text.hasPrefix("HTTP/1.1 413 "), "\(text)")
            // The body is read and dropped; then the connection serves its next request.
            try await Self.expectServed(after: String(repeating: " ", count: 100_000), on: connection, &iterator)
        }
    }

    @Test func aChunkedBodyThatGrowsOverTheLimitIsRefusedAndDropped() async throws {
        try await Self.withConnection { connection, iterator in
            let chunk = "320\r\n" + String(repeating: " ", count: 800) + "\r\n"
            try await connection.send(Self.optionsHead("Transfer-Encoding: chunked\r\n") + chunk + chunk)
            let text = await RawConnection.reply(containing: "request.tooLarge", from: &iterator)
            #expect(text.hasPrefix("HTTP/1.1 413 "), "\(text)")
            try await Self.expectServed(after: chunk + "0\r\n\r\n", on: connection, &iterator)
        }
    }

    @Test func expectContinueGetsAnInterimAnswerBeforeTheBody() async throws {
        try await Self.withConnection { connection, iterator in
            try await connection.send(Self.optionsHead("Content-Length: 2\r\nExpect: 100-continue\r\n"))
            let interim = await RawConnection.reply(containing: "\r\n\r\n", from: &iterator)
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            try await connection.send("{}")
            let text = await RawConnection.reply(containing: #""ticket""#, from: &iterator)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
        }
    }

    @Test func aHeadAnswerHasItsLengthButNoBody() async throws {
        try await Self.withConnection { connection, iterator in
            // The page's HEAD, then a GET on the same connection: its answer must follow the HEAD answer's blank line.
            try await connection.send("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n" + Self.health)
            let text = await RawConnection.reply(containing: #"{"status":"ok"}"#, from: &iterator)
            let answers = text.components(separatedBy: "\r\n\r\n")
            #expect(
                answers.count == 3 && answers[0].contains("\r\nContent-Length: ")
                    && answers[1].hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
        }
    }

    @Test func aClientThatClosesItsSendingSideStillGetsItsAnswer() async throws {
        try await Self.withConnection { connection, iterator in
            try await connection.send(Self.health)
            try await connection.channel.close(mode: .output)
            let text = await RawConnection.reply(containing: #"{"status":"ok"}"#, from: &iterator)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
            #expect(await connection.closedWithin(.seconds(5)) != nil)
        }
    }

    @Test func answersCarryTheDateAndTheServer() async throws {
        #expect(HTTPDate.imfFixdate(second: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.imfFixdate(second: 1_795_000_000) == "Wed, 18 Nov 2026 11:06:40 GMT")
        try await Self.withConnection { connection, iterator in
            try await connection.send(Self.health)
            let text = await RawConnection.reply(containing: #"{"status":"ok"}"#, from: &iterator)
            #expect(text.contains("\r\nServer: Latchkey\r\n"), "\(text)")
            let date = try #require(text.components(separatedBy: "\r\n").first { $0.hasPrefix("Date: ") })
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let sent = try #require(formatter.date(from: String(date.dropFirst("Date: ".count))), "\(date)")
            #expect(abs(sent.timeIntervalSinceNow) < 60)
        }
    }
    /// A router with no error middleware, so that its errors reach the connection: a route that throws, and one whose
    /// streamed body fails after its head.
    private struct Broken: Error {}

    @Test(
        "an error that escapes the router is answered 500 internalError in the error body, and the connection serves on"
    )
    func anErrorThatEscapesTheRouterIsAnswered500() async throws {
        let router = Router(context: ServerRequestContext.self)
        router.get("/throws") { _, _ -> Response in throw Broken() }
        router.get("/breaks") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "half"))
                    throw Broken()
                })
        }
        router.get("/fine") { _, _ in "fine" }
        let responder = router.buildResponder()
        let deadlines = ConnectionDeadlines(
            idle: .seconds(60), header: .seconds(10), body: .seconds(30), write: .seconds(30))
        let app = Application(
            responder: responder,
            server: HTTP1ServerChannel.builder(
                responder: responder, limits: .init(bodyLimit: 1024, deadlines: deadlines),
                connections: ConnectionLimiter(maxPerAddress: 64, trustedProxies: []), serverName: "Latchkey"),
            logger: quietLogger
        )
        try await app.test(.live) { client in
            for path in ["/throws", "/breaks"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .internalServerError, "\(path)")
                let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: response.body))
                #expect(body.error.code == "internalError", "\(path)")
            }
            let fine = try await client.execute(uri: "/fine", method: .get)
            #expect(String(buffer: fine.body) == "fine")
        }
    }

    @Test func eachRequestsLogLinesCarryTheirOwnRequestID() async throws {
        let recorded = RecordedLog()
        var logger = Logger(label: "latchkey.server.test") { _ in RecordingLogHandler(log: recorded) }
        logger.logLevel = .info
        try await withServer(.sqlite, settings: Self.settings, logger: logger) { server in
            for _ in 0..<2 {
                let reply = try await server.app().send(.get, APIPaths.Operations.health)
                #expect(reply.status == .ok)
            }
        }
        let ids = recorded.lines.withLock { $0 }.filter { $0.message == "request" }.compactMap {
            $0.metadata["hb.request.id"]
        }
        #expect(ids.count == 2 && ids[0] != ids[1], "\(ids)")
    }
}

/// The log events a test's server wrote.
final class RecordedLog: Sendable {
    let lines = Mutex<[(message: String, metadata: [String: String])]>([])
}

/// Records each event with its handler metadata and its own, as text.
struct RecordingLogHandler: LogHandler {
    let log: RecordedLog
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues(\.description)
        log.lines.withLock { $0.append((event.message.description, fields)) }
    }
}

/// Graceful shutdown through the server's own connections: idle ones close at once, one whose request is under way is
/// answered first. Timing-dependent (the request's head must have been read when the shutdown begins), so it runs in
/// the timing step of scripts/test.sh (`LATCHKEY_TEST_TIMING=1`), with nothing else on the cores.
@Suite(
    "HTTP/1 connections: graceful shutdown",
    .enabled(if: ProcessInfo.processInfo.environment["LATCHKEY_TEST_TIMING"] == "1"))
struct HTTP1GracefulShutdownTests {
    @Test func aRequestUnderWayIsAnsweredAndIdleConnectionsClose() async throws {
        try await TestDatabase.with(.sqlite) { database in
            var settings = ServerSettings.test
            settings.port = 0
            let configuration = try ServerConfiguration(settings)
            let (ports, port) = AsyncStream.makeStream(of: Int.self)
            let app = ServerApplication.make(
                configuration: configuration, store: try database.makeStore(), logger: quietLogger
            ) {
                port.yield($0)
            }
            let group = ServiceGroup(configuration: .init(services: [app], logger: quietLogger))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var portIterator = ports.makeAsyncIterator()
                let bound = try #require(await portIterator.next())
                let idle = try await RawConnection.open(port: bound)
                let busy = try await RawConnection.open(port: bound)
                var replies = try await busy.replies()
                try await busy.send(HTTP1ConnectionTests.optionsHead("Content-Length: 2\r\n"))
                try await Task.sleep(for: .milliseconds(500))
                await group.triggerGracefulShutdown()
                #expect(await idle.closedWithin(.seconds(5)) != nil, "an idle connection closes at once")
                try await busy.send("{}")
                let text = await RawConnection.reply(containing: #""ticket""#, from: &replies)
                #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
                #expect(await busy.closedWithin(.seconds(5)) != nil, "then it closes")
                try await tasks.next()
            }
        }
    }
}

/// Counts the reads the channel's handlers pass towards the socket.
final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = Any
    private(set) var count = 0

    func read(context: ChannelHandlerContext) {
        count += 1
        context.read()
    }
}
