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
        guard let peerText = peer?.ipAddress, let peerAddress = IPAddress(peerText) else { return "unknown" }
        guard isTrusted(peerAddress) else { return peerAddress.unmapped.description }
        let forwarded = request.headers[values: .xForwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in forwarded.reversed() {
            guard let address = IPAddress(hop) else { break }
            if !isTrusted(address) { return address.unmapped.description }
        }
        return peerAddress.unmapped.description
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
