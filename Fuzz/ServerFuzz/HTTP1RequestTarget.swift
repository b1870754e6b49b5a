import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1

@testable import LatchkeyServer

/// The HTTP/1 request path: the input's bytes, in up to four reads, through SwiftNIO's parser and the connection's
/// handler (and so its state machine) on an embedded channel, each request answered as it comes. Besides a crash, it
/// fails when the connection hands its task more requests at once than its limit, anything after a request that
/// ended the connection, or when the handler outlives its channel (a connection's memory never given back).
enum HTTP1RequestTarget {
    static let limits = HTTP1ConnectionStateMachine.Limits(
        bodyLimit: 256,
        deadlines: ConnectionDeadlines(
            idle: .seconds(60), header: .seconds(10), body: .seconds(30), write: .seconds(30))
    )

    /// What the handler hands the task, kept until the target answers it.
    final class Received {
        var waiting: [HTTP1ConnectionStateMachine.Facts] = []
        var ended = false

        func take(_ incoming: HTTP1ConnectionHandler.Incoming) {
            if ended { fatalError("a request after the connection's last one") }
            switch incoming {
            case .request(_, _, let facts):
                waiting.append(facts)
                ended = facts.close
            case .malformed:
                waiting.append(.closing)
                ended = true
            }
            if waiting.count > HTTP1RequestTarget.limits.maxRequestsInFlight {
                fatalError("more requests in flight than the limit")
            }
        }
    }

    static func run(_ bytes: [UInt8]) {
        weak var released: HTTP1ConnectionHandler?
        serve(bytes, handler: &released)
        if released != nil { fatalError("the connection's handler outlived its channel") }
    }

    private static func serve(_ bytes: [UInt8], handler released: inout HTTP1ConnectionHandler?) {
        let channel = EmbeddedChannel()
        let received = Received()
        let handler = HTTP1ConnectionHandler(
            limits: limits, serverName: "fuzz", requests: { received.take($0) }, finished: {}
        )
        released = handler
        do {
            try channel.pipeline.syncOperations.addHandlers([
                RequestBytesObserver(connection: handler),
                ByteToMessageHandler(HTTPRequestDecoder(limitConfiguration: HTTP1ServerChannel.headLimits)), handler,
            ])
            // Active, as an accepted connection is.
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        } catch {
            fatalError("the pipeline: \(error)")
        }
        // The first byte says where the reads split the rest.
        let cuts = Int(bytes.first ?? 0)
        var rest = bytes.dropFirst()
        for read in 0..<4 where !rest.isEmpty {
            let quarter = (cuts >> (read * 2)) & 3
            let size = read == 3 ? rest.count : min(rest.count, quarter * rest.count / 4 + 1)
            let chunk = rest.prefix(size)
            rest = rest.dropFirst(size)
            channel.read()
            _ = try? channel.writeInbound(ByteBuffer(bytes: chunk))
            // Answer what came, oldest first, as the connection's task does; each answer may let a queued one in.
            while !received.waiting.isEmpty {
                let facts = received.waiting.removeFirst()
                handler.send(HTTPResponse(status: .ok), body: ByteBuffer(string: "{}"), for: facts)
            }
            while (try? channel.readOutbound(as: ByteBuffer.self)) != nil {}
        }
        // The loop's tasks (among them the pipeline's teardown after the handler closed the channel) run, as a real
        // event loop's would; otherwise they would hold the channel.
        channel.embeddedEventLoop.run()
        _ = try? channel.finish(acceptAlreadyClosed: true)
    }
}
