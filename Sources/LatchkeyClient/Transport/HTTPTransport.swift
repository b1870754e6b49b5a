import Foundation

/// One HTTP request as the client builds it.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PATCH`, `DELETE`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields by name.
    public var headers: [String: String]
    /// The body, if any.
    public var body: [UInt8]?

    /// A request as given.
    public init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response as a transport returns it.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields, names lowercased; repeated fields joined as HTTP allows (`Set-Cookie` values are
    /// kept apart in ``setCookies``).
    public var headers: [String: String]
    /// Every `Set-Cookie` field, in order.
    public var setCookies: [String]
    /// The body.
    public var body: [UInt8]

    /// A response as given.
    public init(status: Int, headers: [String: String] = [:], setCookies: [String] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.setCookies = setCookies
        self.body = body
    }
}

/// Sends HTTP requests for the client: ``URLSessionTransport`` normally, a stub in tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's response, whatever its status.
    /// - Throws: ``LatchkeyClientError/transport(_:)`` when no response arrives.
    func send(_ request: HTTPRequest) async throws(LatchkeyClientError) -> HTTPResponse
}
