import HTTPTypes
import Hummingbird
import LatchkeyAPI

/// The web page: `GET /` (the page), `GET /<file>` for each of its static files (and `HEAD` for both), and
/// `GET /v1/web/config` (what the page needs to know about the server). One of the files is `openapi.json`, the
/// OpenAPI document of the whole API (written by scripts/openapi.py), so it is served at `GET /openapi.json`.
///
/// Every response carries the page's security headers (``securityHeaders``): a strict Content-Security-Policy
/// (same-origin scripts, styles and requests only, no inline code, no framing), `nosniff` and a referrer policy.
/// Files are revalidated on each load (`Cache-Control: no-cache` with a strong `ETag`; `If-None-Match` → 304).
/// A path that names no file falls through to the router's 404 JSON.
struct WebPageRoutes: Sendable {
    /// Whether the page offers "Sign in with Apple" (a link to `/v1/apple/authorize`).
    let appleSignIn: Bool
    /// The relying party's display name, shown as the page's title.
    let rpName: String
    /// Whether email is on (`--smtp-url`).
    var email = false
    /// The files to serve: the package's own by default.
    var assets: WebAssets = .bundled

    /// The body of `GET /v1/web/config`.
    struct WebConfig: Codable, Sendable {
        var appleSignIn: Bool
        var rpName: String
        /// Whether the server sends email (`--smtp-url`): the page shows addresses and recovery by email.
        var email: Bool
    }

    /// The Content-Security-Policy of every page response: nothing but the site's own files and API, no inline
    /// code, no framing; `form-action` also allows Apple's sign-in endpoint for the Sign in with Apple flow.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
        "form-action 'self' https://appleid.apple.com",
    ].joined(separator: "; ")

    /// The headers of every page response: the CSP, `nosniff`, no cross-origin referrer, no framing, and a
    /// browsing-context group of its own.
    static let securityHeaders: HTTPFields = {
        var fields: HTTPFields = [.contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff"]
        let more = [
            ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
        for (name, value) in more {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return fields
    }()

    func add(to routes: RouterGroup<ServerRequestContext>) {
        for (name, file) in assets.files {
            let path = RouterPath(name == "index.html" ? "/" : "/" + name)
            routes.get(path) { request, _ in Self.serve(file, for: request) }
            routes.head(path) { request, _ in Self.serve(file, for: request, body: false) }
        }
        let config = WebConfig(appleSignIn: appleSignIn, rpName: rpName, email: email)
        routes.get(RouterPath(APIPaths.Web.config)) { _, _ in
            try Response.json(config, headers: Self.securityHeaders)
        }
    }

    /// The file (its headers only when `body` is false, for `HEAD`), or 304 Not Modified when the request's
    /// `If-None-Match` names its current `ETag`.
    static func serve(_ file: WebAssets.File, for request: Request, body: Bool = true) -> Response {
        var headers = securityHeaders
        headers[.eTag] = file.etag
        headers[.cacheControl] = "no-cache"
        if let tags = request.headers[.ifNoneMatch], matches(tags, file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        guard body else {
            headers[.contentLength] = String(file.body.readableBytes)
            return Response(status: .ok, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }

    /// Whether an `If-None-Match` value (`*` or a comma-separated list of tags, weak or strong) names `etag`.
    private static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
