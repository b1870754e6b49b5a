import Foundation
import Hummingbird
import HummingbirdTesting
import LatchkeyAPI
import NIOCore
import Testing

/// One HTTP client's view of a server: its cookies (like a browser's jar), an optional Bearer token and Origin.
actor HTTPSession {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    var bearer: String?
    var origin: String?

    init(_ client: any TestClientProtocol, origin: String? = nil) {
        self.client = client
        self.origin = origin
    }

    func setBearer(_ token: String?) { bearer = token }
    func setOrigin(_ origin: String?) { self.origin = origin }
    func setCookie(_ name: String, _ value: String?) { cookies[name] = value }

    /// Sends a request with the session's cookies, Bearer token and Origin, and keeps the cookies it sets.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, body: ByteBuffer? = nil, headers extra: HTTPFields = [:])
        async throws -> Reply
    {
        var headers = extra
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        if let bearer, headers[.authorization] == nil { headers[.authorization] = "Bearer \(bearer)" }
        if let origin, headers[.origin] == nil { headers[.origin] = origin }
        if !cookies.isEmpty, headers[.cookie] == nil {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "; ")
        }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body)
        for line in response.headers[values: .setCookie] {
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let expired = line.lowercased().contains("max-age=0")
            cookies[String(pair[0])] = expired || pair[1].isEmpty ? nil : String(pair[1])
        }
        return Reply(status: response.status, headers: response.headers, body: Array(buffer: response.body))
    }

    /// Sends `value` as JSON.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ path: String, json value: some Encodable & Sendable, headers: HTTPFields = [:]
    ) async throws -> Reply {
        try await send(method, path, body: ByteBuffer(bytes: try APIJSON.makeEncoder().encode(value)), headers: headers)
    }

    /// Sends raw text as the body.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, text: String, headers: HTTPFields = [:]) async throws
        -> Reply
    {
        try await send(method, path, body: ByteBuffer(string: text), headers: headers)
    }
}

/// A response.
struct Reply: Sendable, CustomStringConvertible {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type = T.self, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        do {
            return try APIJSON.makeDecoder().decode(T.self, from: Data(body))
        } catch {
            Issue.record("cannot decode \(T.self) from \(status.code) \(text)", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// The native error code, if the body is an error body.
    var errorCode: String? { (try? APIJSON.makeDecoder().decode(APIErrorBody.self, from: Data(body)))?.error.code }
    var errorMessage: String? {
        (try? APIJSON.makeDecoder().decode(APIErrorBody.self, from: Data(body)))?.error.message
    }

    /// The conformance profile's `ServerResponse`, if the body is one.
    var serverResponse: ServerResponse? { try? APIJSON.makeDecoder().decode(ServerResponse.self, from: Data(body)) }

    var description: String { "\(status.code) \(text)" }
}
