#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its network-order bytes (4 or 16).
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    /// Parses dotted IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`, also in brackets); nil for anything else.
    init?(_ text: some StringProtocol) {
        var string = String(text)
        if string.hasPrefix("["), string.hasSuffix("]") { string = String(string.dropFirst().dropLast()) }
        if let zone = string.firstIndex(of: "%") { string = String(string[..<zone]) }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, string, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, string, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`), or self.
    var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff else {
            return self
        }
        return IPAddress(bytes: Array(bytes[12..<16]))
    }

    /// What one client is counted by: an IPv4 address itself, an IPv6 address's /64 (one subscriber usually holds a
    /// whole /64 and can pick any address in it).
    var client: IPAddress {
        bytes.count == 16 ? IPAddress(bytes: Array(bytes.prefix(8)) + [UInt8](repeating: 0, count: 8)) : self
    }

    var description: String {
        if bytes.count == 4 {
            return bytes.map { String($0) }.joined(separator: ".")
        }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        let text: [UInt8] = buffer.prefix { $0 != 0 }.map { character in UInt8(bitPattern: character) }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A block of addresses in CIDR notation (`10.0.0.0/8`, `fd00::/8`); a bare address is a block of one.
public struct CIDRBlock: Hashable, Sendable, CustomStringConvertible {
    let network: IPAddress
    let prefixLength: Int

    /// Parses `ADDRESS/PREFIX` or a bare `ADDRESS`; throws ``ConfigurationError`` for `--trusted-proxy`.
    public init(_ text: String) throws(ConfigurationError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(parts[0]) else {
            throw ConfigurationError(
                "--trusted-proxy", "'\(text)' is not an IP address or CIDR block (e.g. 10.0.0.0/8, fd00::/8)")
        }
        let maximum = address.bytes.count * 8
        guard let length = parts.count == 2 ? Int(parts[1]) : maximum, (0...maximum).contains(length) else {
            throw ConfigurationError("--trusted-proxy", "'\(text)' has a prefix length outside 0...\(maximum)")
        }
        self.network = address
        self.prefixLength = length
    }

    /// Whether `address` is inside the block (IPv4-mapped IPv6 addresses count as IPv4).
    func contains(_ address: IPAddress) -> Bool {
        let candidate = address.unmapped
        guard candidate.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (lhs, rhs) in zip(candidate.bytes, network.bytes) where remaining > 0 {
            let bits = min(remaining, 8)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if lhs & mask != rhs & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The block as written in CIDR notation, e.g. `10.0.0.0/8`.
    public var description: String { "\(network)/\(prefixLength)" }
}
