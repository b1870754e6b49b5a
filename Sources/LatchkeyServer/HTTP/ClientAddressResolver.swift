import HTTPTypes
import Hummingbird
import NIOCore

/// Finds the address of the client behind a request: the TCP peer, or, when the peer is one of the trusted
/// proxies, the right-most address in `X-Forwarded-For` that is not itself a trusted proxy. `X-Forwarded-For`
/// from anyone else is ignored, so clients cannot pick their own rate-limit bucket.
struct ClientAddressResolver: Sendable {
    let trustedProxies: [CIDRBlock]

    /// The client's address as text (`192.0.2.1`, `2001:db8::1`), or `unknown` without a peer address.
    func clientAddress(of request: Request, peer: SocketAddress?) -> String {
        directIPv4(peer) ?? clientIP(of: request, peer: peer)?.description ?? "unknown"
    }

    /// The key the client's rate-limit bucket is filed under: its IPv4 address, or its IPv6 /64 (`2001:db8:1:2::/64`),
    /// since one subscriber usually holds a whole /64 and can pick any address in it.
    func rateLimitKey(of request: Request, peer: SocketAddress?) -> String {
        if let direct = directIPv4(peer) { return direct }
        guard let address = clientIP(of: request, peer: peer) else { return "unknown" }
        guard address.bytes.count == 16 else { return address.description }
        return address.client.description + "/64"
    }

    /// The client's network, as a session records it: an IPv4 /24 or an IPv6 /48 (`203.0.113.0/24`, `2001:db8:1::/48`),
    /// never the full address; nil without a peer address.
    func network(of request: Request, peer: SocketAddress?) -> String? {
        guard let address = clientIP(of: request, peer: peer) else { return nil }
        let kept = address.bytes.count == 4 ? 3 : 6
        let network = IPAddress(
            bytes: Array(address.bytes.prefix(kept)) + [UInt8](repeating: 0, count: address.bytes.count - kept))
        return "\(network)/\(kept * 8)"
    }

    /// The peer's address text when the peer is the client and the text needs no work: an IPv4 peer with no trusted
    /// proxies to look behind. SwiftNIO writes it as ``IPAddress`` does (dotted decimal), so this skips parsing it and
    /// writing it again for every request's log line.
    private func directIPv4(_ peer: SocketAddress?) -> String? {
        guard trustedProxies.isEmpty, case .v4 = peer else { return nil }
        return peer?.ipAddress
    }

    /// The client's address (IPv4-mapped addresses unmapped), or nil without a peer address.
    private func clientIP(of request: Request, peer: SocketAddress?) -> IPAddress? {
        guard let peerText = peer?.ipAddress, let peerAddress = IPAddress(peerText) else { return nil }
        guard isTrusted(peerAddress) else { return peerAddress.unmapped }
        let forwarded = request.headers[values: .xForwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in forwarded.reversed() {
            guard let address = IPAddress(hop) else { break }
            if !isTrusted(address) { return address.unmapped }
        }
        return peerAddress.unmapped
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
