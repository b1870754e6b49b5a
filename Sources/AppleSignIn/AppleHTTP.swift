import AsyncHTTPClient
import Foundation
import NIOCore

/// The one place this module talks HTTP: sends a request with a deadline and returns the status and body,
/// mapping transport failures to `apple.unreachable`. Bodies are capped so a hostile peer cannot exhaust memory.
struct AppleHTTP: Sendable {
    let client: HTTPClient
    let timeout: TimeAmount
    static let maximumBodySize = 1 << 20

    struct Reply: Sendable {
        let status: Int
        let body: [UInt8]
    }

    func get(_ url: String) async throws(AppleSignInError) -> Reply {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        return try await send(request)
    }

    /// POSTs `application/x-www-form-urlencoded` fields.
    func postForm(_ url: String, fields: [(String, String)]) async throws(AppleSignInError) -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(fields)))
        return try await send(request)
    }

    private func send(_ request: HTTPClientRequest) async throws(AppleSignInError) -> Reply {
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            return Reply(status: Int(response.status.code), body: Array(buffer: body))
        } catch {
            throw AppleSignInError(.unreachable, "Apple could not be reached at \(request.url): \(type(of: error))")
        }
    }
}

/// `application/x-www-form-urlencoded` encoding and decoding (WHATWG URL standard).
public enum FormEncoding {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*".utf8)

    /// Encodes fields in order as `name=value&…`. A space is `+` in a form body; with `spaceAsPercent20` it is `%20`,
    /// as a URL query that other parsers read (Apple's authorize URL) wants it.
    public static func encode(_ fields: [(String, String)], spaceAsPercent20: Bool = false) -> String {
        let space = spaceAsPercent20 ? "%20" : "+"
        return fields.map { escape($0.0, space: space) + "=" + escape($0.1, space: space) }.joined(separator: "&")
    }

    /// Decodes `name=value&…`; later duplicates win. Invalid percent escapes are kept literally.
    public static func decode(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(parts[0])
            fields[name] = parts.count > 1 ? unescape(parts[1]) : ""
        }
        return fields
    }

    private static func escape(_ text: String, space: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: " ") {
                out += space
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    private static func unescape(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
