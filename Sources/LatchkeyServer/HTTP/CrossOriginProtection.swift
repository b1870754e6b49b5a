import HTTPTypes
import Hummingbird

/// Refuses cross-origin browser requests that could change state (CSRF), with the rules of Go 1.25's
/// `net/http.CrossOriginProtection`, on every route.
///
/// `GET`, `HEAD` and `OPTIONS` always pass (they change nothing). Any other method:
/// 1. `Sec-Fetch-Site: same-origin` or `none` (the user's own action) passes;
/// 2. `Sec-Fetch-Site: same-site` or `cross-site` is refused unless `Origin` is one of the site's origins (the web
///    origins and the related origins);
/// 3. without `Sec-Fetch-Site` (an older browser), an `Origin` whose host and port are the request's `Host` passes,
///    one of the site's origins passes, any other is refused;
/// 4. a request with neither header passes: it is not from a browser (an app's URLSession, the FIDO conformance
///    tool, curl), so no cookie was attached behind the user's back.
///
/// Refusals are 403 `request.originNotAllowed`. Paths in `bypassPaths` are not checked: Apple's web flow posts its
/// callback form from `appleid.apple.com`, a cross-site request by design, which the single-use `state` protects.
struct CrossOriginProtection: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// Origins (`scheme://host[:port]`) whose cross-site requests are allowed.
    let trustedOrigins: Set<String>
    /// Paths that are never checked.
    let bypassPaths: Set<String>

    @concurrent
    func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard isAllowed(request) else { throw APIError.crossOrigin }
        return try await next(request, context)
    }

    /// Whether `request` passes the rules above.
    func isAllowed(_ request: Request) -> Bool {
        if request.method == .get || request.method == .head || request.method == .options { return true }
        let origin = request.headers[.origin]
        switch request.headers[.secFetchSite]?.lowercased() {
        case nil:
            guard let origin else { return true }
            if let host = request.head.authority, let originHost = Self.hostAndPort(of: origin),
                originHost.lowercased() == host.lowercased()
            {
                return true
            }
        case "same-origin", "none":
            return true
        default:
            break
        }
        return isExempt(request, origin: origin)
    }

    private func isExempt(_ request: Request, origin: String?) -> Bool {
        if bypassPaths.contains(request.uri.path) { return true }
        guard let origin else { return false }
        return trustedOrigins.contains(origin)
    }

    /// `host[:port]` of an origin `scheme://host[:port]`, or nil when it has no such form (`null`, garbage).
    ///
    /// Searched byte by byte: `String.range(of:)` is Foundation's, which bridges to a `CFString` on Linux, a visible
    /// part of a browser's `POST` (every one carries `Origin`).
    static func hostAndPort(of origin: String) -> Substring? {
        let bytes = origin.utf8
        guard let separator = bytes.indices.first(where: { bytes[$0...].starts(with: "://".utf8) }) else { return nil }
        let authority = origin[bytes.index(separator, offsetBy: 3)...]
        guard !authority.isEmpty, !authority.utf8.contains(UInt8(ascii: "/")),
            !authority.utf8.contains(UInt8(ascii: "@"))
        else {
            return nil
        }
        return authority
    }
}

extension HTTPField.Name {
    /// `Sec-Fetch-Site`: where a browser request comes from (`same-origin`, `same-site`, `cross-site`, `none`).
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}

extension APIError {
    /// 403 `request.originNotAllowed`: a cross-origin browser request to an unsafe method.
    static let crossOrigin = APIError(
        .requestOriginNotAllowed,
        "a cross-origin browser request cannot change state; send it from one of the site's origins"
    )
}
