import AsyncHTTPClient
import Foundation
import LatchkeyClient
import NIOCore
import NIOHTTP1

/// ``LatchkeyClient/HTTPTransport`` over AsyncHTTPClient: pooled keep-alive connections on SwiftNIO, so a load
/// test measures the server rather than the client's HTTP stack.
struct AsyncHTTPTransport: HTTPTransport {
    let client: HTTPClient
    let timeout: TimeAmount
    static let maximumBodySize = 1 << 20

    func send(_ request: LatchkeyClient.HTTPRequest) async throws(LatchkeyClientError) -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            var headers: [String: String] = [:]
            var setCookies: [String] = []
            for field in response.headers {
                if field.name.lowercased() == "set-cookie" {
                    setCookies.append(field.value)
                } else {
                    headers[field.name] = headers[field.name].map { "\($0), \(field.value)" } ?? field.value
                }
            }
            return HTTPResponse(status: Int(response.status.code), headers: headers, setCookies: setCookies, body: Array(buffer: body))
        } catch {
            throw .transport("\(request.method) \(request.url.absoluteString): \(error)")
        }
    }
}
