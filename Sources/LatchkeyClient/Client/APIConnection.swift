import Foundation
import LatchkeyAPI

/// One server, one transport, one cookie jar, an optional bearer token: the JSON request/response plumbing
/// both profile clients share.
actor APIConnection {
    /// How a profile reads an error response: the error it says, or nil when the body is not its error form.
    typealias ErrorReader = @Sendable (_ status: Int, _ body: [UInt8]) -> LatchkeyClientError?

    let server: URL
    private let transport: any HTTPTransport
    private let readError: ErrorReader
    /// The web origin sent as `Origin`, as a browser sends it; nil sends none (an app).
    private let origin: String?
    private let cookies = CookieJar()
    /// The session token sent as `Authorization: Bearer`.
    var bearerToken: String?

    init(server: URL, transport: any HTTPTransport, origin: String? = nil, readError: @escaping ErrorReader) {
        self.server = server
        self.transport = transport
        self.origin = origin
        self.readError = readError
    }

    func setBearerToken(_ token: String?) {
        bearerToken = token
    }

    /// The access token of the last sign-in or refresh, with its refresh token.
    private(set) var accessToken: AccessTokenResponse?
    /// The refresh under way, which concurrent callers share: a refresh token works once.
    private var refreshing: Task<AccessTokenResponse, any Error>?

    func setAccessToken(_ token: AccessTokenResponse?) {
        accessToken = token
    }

    /// The access token, refreshed first (`POST /v1/token`) when it expires within `margin` of `now`; nil when the
    /// server issued none. A failed refresh forgets the token.
    func validAccessToken(now: Date, margin: TimeInterval) async throws(LatchkeyClientError) -> String? {
        guard let current = accessToken else { return nil }
        if current.expiresAt.timeIntervalSince(now) > margin { return current.accessToken }
        let task =
            refreshing
            ?? Task {
                try await self.send(
                    "POST", APIPaths.Native.token, body: RefreshTokenRequest(refreshToken: current.refreshToken),
                    as: AccessTokenResponse.self)
            }
        refreshing = task
        do {
            let next = try await task.value
            if refreshing == task { refreshing = nil }
            accessToken = next
            return next.accessToken
        } catch {
            if refreshing == task { refreshing = nil }
            accessToken = nil
            throw (error as? LatchkeyClientError) ?? .transport("\(error)")
        }
    }

    /// Sends `body` as JSON and decodes the response as `Response`.
    func send<Response: Decodable>(
        _ method: String, _ path: String, body: (some Encodable & Sendable)?, as type: Response.Type
    ) async throws(LatchkeyClientError) -> Response {
        let response = try await exchange(method, path, body: body)
        do {
            return try APIJSON.makeDecoder().decode(Response.self, from: Data(response.body))
        } catch {
            throw .unexpectedResponse(
                status: response.status, "\(method) \(path): the body is not a \(Response.self): \(error)")
        }
    }

    /// Sends `body` (if any) as JSON and checks the status; returns the raw response.
    @discardableResult
    func exchange(_ method: String, _ path: String, body: (some Encodable & Sendable)?)
        async throws(LatchkeyClientError) -> HTTPResponse
    {
        guard let url = URL(string: path, relativeTo: server)?.absoluteURL else {
            throw .invalidRequest("\(path) is not a path on \(server.absoluteString)")
        }
        var headers = ["Accept": "application/json"]
        var bytes: [UInt8]?
        if let body {
            do {
                bytes = Array(try APIJSON.makeEncoder().encode(body))
            } catch {
                throw .invalidRequest("the \(type(of: body)) body cannot be encoded: \(error)")
            }
            headers["Content-Type"] = "application/json"
        }
        if let bearerToken { headers["Authorization"] = "Bearer \(bearerToken)" }
        if let origin { headers["Origin"] = origin }
        if let cookie = await cookies.header { headers["Cookie"] = cookie }

        let response = try await transport.send(HTTPRequest(method: method, url: url, headers: headers, body: bytes))
        await cookies.store(response.setCookies)
        guard (200..<300).contains(response.status) else {
            if let error = readError(response.status, response.body) { throw error }
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            throw .unexpectedResponse(status: response.status, "\(method) \(path): \(text.isEmpty ? "no body" : text)")
        }
        return response
    }
}

/// A request without a body.
struct NoBody: Encodable, Sendable {}
