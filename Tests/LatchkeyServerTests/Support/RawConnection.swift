import NIOCore
import NIOPosix

/// A raw TCP connection to the test server.
struct RawConnection {
    let channel: any Channel

    static func open(port: Int) async throws -> RawConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// The text the server sends on this connection, as it arrives.
    func replies() async throws -> AsyncStream<String>.Iterator {
        let (replies, continuation) = AsyncStream<String>.makeStream()
        try await channel.pipeline.addHandler(ReplyCollector(continuation: continuation)).get()
        return replies.makeAsyncIterator()
    }

    /// What `replies` brings until it contains `marker` (or the connection ends).
    static func reply(containing marker: String, from replies: inout AsyncStream<String>.Iterator) async -> String {
        var text = ""
        while !text.contains(marker), let chunk = await replies.next() { text += chunk }
        return text
    }

    /// How long until the server closes the connection, or nil when it is still open after `limit` (then the
    /// client closes it).
    func closedWithin(_ limit: Duration) async -> Duration? {
        let start = ContinuousClock.now
        let giveUp = Task {
            try await Task.sleep(for: limit)
            try await channel.close()
        }
        try? await channel.closeFuture.get()
        giveUp.cancel()
        let elapsed = ContinuousClock.now - start
        return elapsed < limit ? elapsed : nil
    }
}

/// Passes what a raw connection receives to a stream, as text.
final class ReplyCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let continuation: AsyncStream<String>.Continuation

    init(continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // A connection the server already closed sends nothing more: the stream ends now.
        if !context.channel.isActive { continuation.finish() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        continuation.yield(String(buffer: unwrapInboundIn(data)))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
    }
}
