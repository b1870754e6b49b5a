import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession`: Foundation on Apple platforms, FoundationNetworking on Linux.
///
/// Cookies are left to the client (``LatchkeyClient`` keeps its own jar), so the session's shared cookie
/// storage is neither read nor written.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// A transport on a fresh ephemeral session with `timeout` seconds per request.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        self.session = URLSession(configuration: configuration)
    }

    /// A transport on `session` (which should not handle cookies itself).
    public init(session: URLSession) {
        self.session = session
    }

    /// Sends `request` with URLSession and returns the answer; a network failure is a ``LatchkeyClientError``.
    public func send(_ request: HTTPRequest) async throws(LatchkeyClientError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body.map { Data($0) }

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw .transport("\(request.method) \(request.url.absoluteString): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport("\(request.url.absoluteString) did not answer over HTTP")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        let setCookie = headers.first { $0.key.lowercased() == "set-cookie" }?.value
        return HTTPResponse(
            status: http.statusCode, headers: headers,
            setCookies: setCookie.map(Self.splitSetCookie) ?? [], body: Array(data)
        )
    }

    /// Splits a `Set-Cookie` value that Foundation joined with commas, leaving the commas inside
    /// `Expires=Wed, 21 Oct …` alone.
    static func splitSetCookie(_ joined: String) -> [String] {
        var cookies: [String] = []
        var current = ""
        for part in joined.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            // A new cookie starts with `name=`; an `Expires` date's tail starts with a day number.
            if !current.isEmpty, let equals = trimmed.firstIndex(of: "="),
                !trimmed[..<equals].contains(" "), !trimmed[..<equals].contains(";")
            {
                cookies.append(current)
                current = trimmed
            } else {
                current += current.isEmpty ? trimmed : "," + String(part)
            }
        }
        if !current.isEmpty { cookies.append(current) }
        return cookies
    }
}
