import Foundation
import LatchkeyAPI
import LatchkeyServer
import NIOCore
import NIOPosix
import Testing

/// Slow clients (slowloris) against a live server on loopback, over raw TCP connections: a client that stops in the
/// middle of its headers or its body, or opens a connection and sends nothing, is disconnected once its deadline
/// passes, while requests on other connections are served.
/// Timing-dependent: it runs in its own step of scripts/test.sh, with nothing else on the cores
/// (`LATCHKEY_TEST_TIMING=1 swift test --filter …`), and is skipped in the parallel run.
@Suite(
    "Connection deadlines: idle, headers and body", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["LATCHKEY_TEST_TIMING"] == "1"))
struct ConnectionDeadlineTests {
    /// Short deadlines so the tests run quickly.
    static var settings: ServerSettings {
        var settings = ServerSettings.test
        settings.idleTimeout = 3
        settings.headerTimeout = 1
        settings.bodyTimeout = 2
        return settings
    }

    private static func port(_ server: ServerHarness) throws -> Int {
        try #require(server.client.port)
    }

    /// While `stalled` waits, a normal request on another connection is answered.
    private static func expectServed(_ server: ServerHarness) async throws {
        let health = try await server.app().send(.get, APIPaths.Operations.health)
        #expect(health.status == .ok, "\(health)")
    }

    @Test(arguments: Backend.available)
    func halfSentHeadersAreCutOffAtTheHeaderDeadline(_ backend: Backend) async throws {
        try await withServer(backend, settings: Self.settings) { server in
            let stalled = try await RawConnection.open(port: try Self.port(server))
            try await stalled.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            try await Self.expectServed(server)
            let closedAfter = await stalled.closedWithin(.seconds(6))
            let elapsed = try #require(closedAfter, "a client that stops in its headers is disconnected")
            #expect(elapsed < .seconds(2.5), "the 1 s header deadline, not the 3 s idle timeout: \(elapsed)")
        }
    }

    @Test(arguments: Backend.available)
    func headersTrickledByteByByteAreCutOffAtTheHeaderDeadline(_ backend: Backend) async throws {
        try await withServer(backend, settings: Self.settings) { server in
            let stalled = try await RawConnection.open(port: try Self.port(server))
            let start = ContinuousClock.now
            let trickle = Task {
                for byte in "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
                    try await stalled.send(String(byte))
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            defer { trickle.cancel() }
            let closedAfter = await stalled.closedWithin(.seconds(6))
            #expect(closedAfter != nil, "a client that keeps sending a byte at a time is disconnected all the same")
            #expect(ContinuousClock.now - start < .seconds(2.5))
        }
    }

    @Test(arguments: Backend.available)
    func aBodyThatStopsIsCutOffAtTheBodyDeadline(_ backend: Backend) async throws {
        try await withServer(backend, settings: Self.settings) { server in
            let stalled = try await RawConnection.open(port: try Self.port(server))
            try await stalled.send(
                """
                POST /v1/passkeys/authentication/options HTTP/1.1\r
                Host: localhost\r
                Content-Type: application/json\r
                Content-Length: 100\r
                \r
                {"username":
                """)
            let sent = ContinuousClock.now
            try await Self.expectServed(server)
            let closedAfter = await stalled.closedWithin(.seconds(6))
            #expect(closedAfter != nil, "a client that stops in its body is disconnected")
            let elapsed = ContinuousClock.now - sent
            #expect(elapsed < .seconds(4), "the 2 s body deadline: \(elapsed)")
            #expect(elapsed > .seconds(1.5), "the body has its own deadline, longer than the header one: \(elapsed)")
        }
    }

    @Test(arguments: Backend.available)
    func aSilentConnectionIsClosedAtTheIdleTimeout(_ backend: Backend) async throws {
        try await withServer(backend, settings: Self.settings) { server in
            let silent = try await RawConnection.open(port: try Self.port(server))
            try await Self.expectServed(server)
            let closedAfter = await silent.closedWithin(.seconds(8))
            let elapsed = try #require(closedAfter, "a connection that never sends a byte is closed")
            #expect(elapsed < .seconds(5), "the 3 s idle timeout: \(elapsed)")
        }
    }

    @Test(arguments: Backend.available)
    func aKeptAliveConnectionServesRequestsWithinTheDeadlines(_ backend: Backend) async throws {
        try await withServer(backend, settings: Self.settings) { server in
            let connection = try await RawConnection.open(port: try Self.port(server))
            var replies = try await connection.replies()
            // Two requests, 1.5 s apart (longer than the header deadline, shorter than the idle timeout).
            for round in 0..<2 {
                if round > 0 { try await Task.sleep(for: .milliseconds(1500)) }
                try await connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let text = await RawConnection.reply(containing: "{\"status\":\"ok\"}", from: &replies)
                #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
            }
            connection.channel.close(promise: nil)
        }
    }

    /// The deadlines move with each request of a kept-alive connection (one timer, set again when it fires): a second
    /// request that stops in its headers, sent while the first request's timer is still pending, is cut off at its own
    /// header deadline.
    @Test(arguments: Backend.available)
    func aKeptAliveConnectionThatStallsInALaterRequestIsCutOff(_ backend: Backend) async throws {
        try await withServer(backend, settings: Self.settings) { server in
            let connection = try await RawConnection.open(port: try Self.port(server))
            var replies = try await connection.replies()
            // A request whose body arrives 300 ms after its headers (inside the 2 s body deadline), answered.
            try await connection.send(
                "POST /v1/passkeys/authentication/options HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n"
            )
            try await Task.sleep(for: .milliseconds(300))
            try await connection.send("{}")
            let text = await RawConnection.reply(containing: "\"ticket\"", from: &replies)
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
            // The next request stops in its headers, while the first request's timer is pending.
            try await Task.sleep(for: .milliseconds(200))
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            let stalled = ContinuousClock.now
            try await Self.expectServed(server)
            let closedAfter = await connection.closedWithin(.seconds(6))
            #expect(
                closedAfter != nil, "a kept-alive connection that stops in a later request's headers is disconnected")
            let elapsed = ContinuousClock.now - stalled
            #expect(elapsed > .seconds(0.8), "not before its own 1 s header deadline: \(elapsed)")
            #expect(elapsed < .seconds(2.5), "at its 1 s header deadline, not the 3 s idle timeout: \(elapsed)")
        }
    }

    /// A client that pipelines a thousand requests for the largest document and never reads: the server holds at most
    /// four answers (and 32 parsed requests) for it, the socket's buffers fill, and the write deadline closes it.
    @Test func aClientThatNeverReadsIsClosedAtTheWriteDeadline() async throws {
        var settings = Self.settings
        settings.writeTimeout = 1
        try await withServer(.sqlite, settings: settings) { server in
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(ChannelOptions.autoRead, value: false)
                .channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: 4096)
                .connect(host: "127.0.0.1", port: try Self.port(server)).get()
            let request = "GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n"
            let sent = ContinuousClock.now
            try await channel.writeAndFlush(ByteBuffer(string: String(repeating: request, count: 1000))).get()
            // The socket's buffers fill with the first answers; then nothing is taken for a second, and the server
            // closes the connection (the client sees the reset or the end without reading).
            let closedAfter = await RawConnection(channel: channel).closedWithin(.seconds(10))
            let elapsed = try #require(closedAfter, "a client that never reads is disconnected")
            #expect(ContinuousClock.now - sent < .seconds(6), "at the 1 s write deadline: \(elapsed)")
            try await Self.expectServed(server)
        }
    }

    @Test func theDeadlinesAreSettingsWithDefaults() throws {
        let defaults = try ServerConfiguration(ServerSettings())
        #expect(
            defaults.connectionDeadlines
                == ConnectionDeadlines(
                    idle: .seconds(60), header: .seconds(10), body: .seconds(30), write: .seconds(30)))
        let environment = try ServerSettings(environment: [
            "LATCHKEY_IDLE_TIMEOUT": "5", "LATCHKEY_HEADER_TIMEOUT": "2", "LATCHKEY_BODY_TIMEOUT": "4",
            "LATCHKEY_WRITE_TIMEOUT": "6", "LATCHKEY_MAX_CONNECTIONS_PER_ADDRESS": "3",
        ])
        #expect(
            try ServerConfiguration(environment).connectionDeadlines
                == ConnectionDeadlines(idle: .seconds(5), header: .seconds(2), body: .seconds(4), write: .seconds(6)))
        #expect(try ServerConfiguration(environment).maxConnectionsPerAddress == 3)
        #expect(defaults.maxConnectionsPerAddress == 64)
        var zero = ServerSettings()
        zero.headerTimeout = 0
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(zero) }
    }
}
