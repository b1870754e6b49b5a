import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import LatchkeyServer

/// ``ClientAddressResolver``: the peer, or the client behind a trusted proxy, written the same way on every path.
@Suite("Client addresses")
struct ClientAddressResolverTests {
    private static func request(forwardedFor: String? = nil) -> Request {
        var head = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/")
        if let forwardedFor { head.headerFields[.xForwardedFor] = forwardedFor }
        return Request(head: head, body: .init(buffer: ByteBuffer()))
    }

    @Test("a direct IPv4 peer reads as IPAddress writes it, for the log and the rate limit alike")
    func directIPv4() throws {
        let direct = ClientAddressResolver(trustedProxies: [])
        var addresses = ["0.0.0.0", "255.255.255.255", "10.0.0.1", "192.0.2.1", "127.0.0.1"]
        addresses += (0..<500).map { _ in
            (0..<4).map { _ in String(UInt8.random(in: .min ... .max)) }.joined(separator: ".")
        }
        for text in addresses {
            let peer = try SocketAddress(ipAddress: text, port: 443)
            let written = try #require(IPAddress(text)).description
            #expect(direct.clientAddress(of: Self.request(), peer: peer) == written)
            #expect(direct.rateLimitKey(of: Self.request(), peer: peer) == written)
            // X-Forwarded-For from a peer that is not a trusted proxy is ignored.
            #expect(direct.clientAddress(of: Self.request(forwardedFor: "203.0.113.9"), peer: peer) == written)
        }
        #expect(direct.clientAddress(of: Self.request(), peer: nil) == "unknown")
    }

    @Test("IPv6 peers, mapped IPv4 and trusted proxies still go through the parsed address")
    func otherPeers() throws {
        let direct = ClientAddressResolver(trustedProxies: [])
        #expect(
            direct.clientAddress(of: Self.request(), peer: try SocketAddress(ipAddress: "::ffff:192.0.2.1", port: 1))
                == "192.0.2.1")
        #expect(
            direct.clientAddress(of: Self.request(), peer: try SocketAddress(ipAddress: "2001:db8::1", port: 1))
                == "2001:db8::1")
        #expect(
            direct.rateLimitKey(of: Self.request(), peer: try SocketAddress(ipAddress: "2001:db8:1:2:3::1", port: 1))
                == "2001:db8:1:2::/64")
        let proxied = ClientAddressResolver(trustedProxies: [try CIDRBlock("127.0.0.0/8")])
        let proxy = try SocketAddress(ipAddress: "127.0.0.1", port: 1)
        #expect(
            proxied.clientAddress(of: Self.request(forwardedFor: "203.0.113.9, 127.0.0.2"), peer: proxy)
                == "203.0.113.9")
        #expect(proxied.rateLimitKey(of: Self.request(forwardedFor: "203.0.113.9"), peer: proxy) == "203.0.113.9")
        #expect(proxied.clientAddress(of: Self.request(), peer: proxy) == "127.0.0.1")
    }
}
