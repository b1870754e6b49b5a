import Hummingbird
import NIOCore

/// The request context of every Latchkey route: the core context plus the peer's socket address, from which
/// `ClientAddressResolver` finds the client (for rate limits and logs).
public struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The address of the TCP peer: the client, or the last proxy in front of it.
    public let remoteAddress: SocketAddress?
    /// The request's body once ``BodyLimitMiddleware`` has collected it within the limit, so that a route takes it
    /// from here instead of iterating the body again (each step of that iteration was a job on the event loop).
    var collectedBody: ByteBuffer?
    /// The connection the request came on, under `latchkey serve` (not in the in-process test mode, whose channels
    /// are never active).
    var connection: (any Channel)?

    /// Whether the client is still there to take the answer: false once its connection has closed. Long work (a
    /// password hash) that has not begun is then dropped.
    var clientIsConnected: @Sendable () -> Bool {
        guard let connection else { return { true } }
        return { connection.isActive }
    }

    /// A context for a request arriving on the application's channel.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
