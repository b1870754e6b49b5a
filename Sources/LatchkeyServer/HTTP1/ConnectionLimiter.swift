import NIOCore
import Synchronization

/// How many connections each client address holds open, and the cap: a connection past it is closed as it is
/// accepted, so one client cannot take every descriptor the server has. An IPv6 client is counted by its /64, as the
/// rate limit counts it; connections from a trusted proxy are not counted (they carry many clients).
final class ConnectionLimiter: Sendable {
    /// Connections one address may hold at once.
    let maxPerAddress: Int
    private let trustedProxies: [CIDRBlock]
    private let open = Mutex<[IPAddress: Int]>([:])

    init(maxPerAddress: Int, trustedProxies: [CIDRBlock]) {
        self.maxPerAddress = maxPerAddress
        self.trustedProxies = trustedProxies
    }

    /// Counts a new connection from `peer`; nil when it is over the cap (close it), else what to release when it
    /// closes (``release(_:)``; an uncounted connection's releases nothing).
    func admit(_ peer: SocketAddress?) -> Admission? {
        guard let text = peer?.ipAddress, let address = IPAddress(text)?.unmapped else { return Admission(key: nil) }
        if trustedProxies.contains(where: { $0.contains(address) }) { return Admission(key: nil) }
        let key = address.client
        let admitted = open.withLock { counts -> Bool in
            let count = counts[key, default: 0]
            guard count < maxPerAddress else { return false }
            counts[key] = count + 1
            return true
        }
        return admitted ? Admission(key: key) : nil
    }

    /// The connection admitted as `admission` closed.
    func release(_ admission: Admission) {
        guard let key = admission.key else { return }
        open.withLock { counts in
            let count = counts[key, default: 1] - 1
            counts[key] = count > 0 ? count : nil
        }
    }

    /// A counted (or uncounted) connection.
    struct Admission: Sendable {
        fileprivate let key: IPAddress?
    }
}

/// First in a connection's pipeline: counts the connection while it is open, and closes it as it becomes active when its
/// address is over the cap (no byte of it is read).
final class ConnectionCapHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limiter: ConnectionLimiter
    private let admission: ConnectionLimiter.Admission?

    init(limiter: ConnectionLimiter, peer: SocketAddress?) {
        self.limiter = limiter
        admission = limiter.admit(peer)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if admission == nil, context.channel.isActive { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if admission == nil { context.close(promise: nil) } else { context.fireChannelActive() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection reads nothing.
        guard admission != nil else { return }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let admission { limiter.release(admission) }
        context.fireChannelInactive()
    }
}
