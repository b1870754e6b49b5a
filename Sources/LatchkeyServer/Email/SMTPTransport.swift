import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends each message over its own SMTP submission connection (RFC 6409): greeting, EHLO, STARTTLS (required unless
/// the URL is `smtps://` or `tls=none` on loopback) and EHLO again, AUTH PLAIN (or LOGIN) when the URL has a user,
/// MAIL, RCPT, DATA, QUIT. The whole exchange, connection included, is bounded by the configured timeout. The server's
/// replies are read by ``SMTPReplyParser``; 4xx answers and connection failures are temporary, 5xx permanent.
struct SMTPTransport: MailTransport {
    let server: SMTPConfiguration.Server
    /// The name the server gives itself in EHLO and in Message-IDs.
    let heloName: String
    private let tls: NIOSSLContext?
    private let group: any EventLoopGroup

    init(
        server: SMTPConfiguration.Server, heloName: String,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    )
        throws(ConfigurationError)
    {
        self.server = server
        self.heloName = heloName
        self.group = group
        guard server.security != .none else {
            tls = nil
            return
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let ca = server.trustedCA { configuration.trustRoots = .file(ca) }
        do {
            tls = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ConfigurationError("--smtp-url", "cannot set up TLS: \(error)")
        }
    }

    func send(_ message: MailMessage) async throws(MailDeliveryError) {
        let timeout = server.timeout
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await self.deliver(message) }
                tasks.addTask {
                    try await Task.sleep(for: timeout)
                    throw MailDeliveryError.temporary("the SMTP exchange took longer than \(timeout)")
                }
                defer { tasks.cancelAll() }
                try await tasks.next()
            }
        } catch let error as MailDeliveryError {
            throw error
        } catch {
            throw .temporary("cannot reach the SMTP server \(server.host):\(server.port): \(error)")
        }
    }

    private func deliver(_ message: MailMessage) async throws {
        var session = try await connect()
        defer { session.channel.close(promise: nil) }
        try await session.converse(message, server: server, heloName: heloName, tls: tls)
    }

    private func connect() async throws -> SMTPSession {
        let (replies, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let implicitTLS = server.security == .implicitTLS ? tls : nil
        let serverName = SMTPSession.serverName(server.host)
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(Int64(server.timeout.components.seconds)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: implicitTLS, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler(continuation: continuation))
                }
            }
            .connect(host: server.host, port: server.port).get()
        return SMTPSession(channel: channel, replies: replies.makeAsyncIterator())
    }
}

/// One connection's conversation: commands written, replies awaited in order.
private struct SMTPSession {
    let channel: any Channel
    var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator

    /// The name to send in SNI and check the certificate against: nil for an IP address (checked against the address).
    static func serverName(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }

    mutating func converse(
        _ message: MailMessage, server: SMTPConfiguration.Server, heloName: String, tls: NIOSSLContext?
    ) async throws {
        _ = try await reply(to: nil, step: "the greeting", accepting: 220)
        var hello = try await reply(to: "EHLO \(heloName)", step: "EHLO", accepting: 250)
        if server.security == .startTLS, let tls {
            guard hello.extensions.contains("STARTTLS") else {
                throw MailDeliveryError.permanent(
                    "the SMTP server does not offer STARTTLS (use smtps:// if it speaks TLS)")
            }
            _ = try await reply(to: "STARTTLS", step: "STARTTLS", accepting: 220)
            let channel = channel
            let serverName = Self.serverName(server.host)
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(
                    NIOSSLClientHandler(context: tls, serverHostname: serverName), position: .first)
            }.get()
            hello = try await reply(to: "EHLO \(heloName)", step: "EHLO after STARTTLS", accepting: 250)
        }
        if let username = server.username, let password = server.password {
            try await authenticate(username: username, password: password, offered: hello.authMechanisms)
        }
        let needsUTF8 = !(message.from + message.to).allSatisfy(\.isASCII)
        if needsUTF8 && !hello.extensions.contains("SMTPUTF8") {
            throw MailDeliveryError.permanent("the SMTP server does not take non-ASCII addresses (no SMTPUTF8)")
        }
        _ = try await reply(
            to: "MAIL FROM:<\(message.from)>" + (needsUTF8 ? " SMTPUTF8" : ""), step: "MAIL FROM", accepting: 250)
        _ = try await reply(to: "RCPT TO:<\(message.to)>", step: "RCPT TO", accepting: 250, 251)
        _ = try await reply(to: "DATA", step: "DATA", accepting: 354)
        let text = message.rendered(messageID: "\(UUID().uuidString.lowercased())@\(heloName)")
            .replacingOccurrences(of: "\r\n.", with: "\r\n..")
        _ = try await reply(to: text + ".", step: "the message", accepting: 250)
        _ = try? await reply(to: "QUIT", step: "QUIT", accepting: 221)
    }

    private mutating func authenticate(username: String, password: String, offered: Set<String>) async throws {
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if offered.contains("PLAIN") {
            _ = try await reply(
                to: "AUTH PLAIN " + base64("\0\(username)\0\(password)"), step: "AUTH PLAIN", accepting: 235)
        } else if offered.contains("LOGIN") {
            _ = try await reply(to: "AUTH LOGIN", step: "AUTH LOGIN", accepting: 334)
            _ = try await reply(to: base64(username), step: "AUTH LOGIN (user name)", accepting: 334)
            _ = try await reply(to: base64(password), step: "AUTH LOGIN (password)", accepting: 235)
        } else {
            throw MailDeliveryError.permanent(
                "the SMTP server offers no AUTH mechanism Latchkey speaks (PLAIN, LOGIN); it offers \(offered.sorted())"
            )
        }
    }

    /// Writes `command` (if any) and waits for the next reply, which must have one of the `accepted` codes.
    private mutating func reply(to command: String?, step: String, accepting accepted: Int...) async throws
        -> SMTPReply
    {
        if let command {
            try await channel.writeAndFlush(ByteBuffer(string: command + "\r\n")).get()
        }
        guard let reply = try await replies.next(isolation: #isolation) else {
            throw MailDeliveryError.temporary("the SMTP server closed the connection before answering \(step)")
        }
        guard accepted.contains(reply.code) else { throw reply.failure(during: step) }
        return reply
    }
}

/// Reads the connection's bytes into replies for the conversation; the stream ends when the connection does.
private final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var parser = SMTPReplyParser()
    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation

    init(continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        do {
            for reply in try parser.feed(buffer.readableBytesView) { continuation.yield(reply) }
        } catch {
            continuation.finish(throwing: error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: MailDeliveryError.temporary("SMTP connection: \(error)"))
        context.close(promise: nil)
    }
}
