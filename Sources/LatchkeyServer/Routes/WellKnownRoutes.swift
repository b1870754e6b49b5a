import Hummingbird
import LatchkeyAPI

/// The files other parties fetch from the RP's domain, served as `application/json` with no redirect:
/// Apple's app-site association (webcredentials), Android's asset links, and WebAuthn related origins.
struct WellKnownRoutes: Sendable {
    let configuration: ServerConfiguration

    /// Adds the three routes, each answering with its file encoded once, here.
    func add(to routes: RouterGroup<ServerRequestContext>) {
        let caching: HTTPFields = [.cacheControl: "public, max-age=3600"]
        let files = [
            (
                APIPaths.WellKnown.appleAppSiteAssociation,
                EncodedJSON(AppleAppSiteAssociation(apps: configuration.appleAppIDs))
            ),
            (APIPaths.WellKnown.assetLinks, EncodedJSON(configuration.androidApps.map(AssetLinkStatement.init(app:)))),
            (
                APIPaths.WellKnown.webAuthnRelatedOrigins,
                EncodedJSON(RelatedOrigins(origins: configuration.relatedOrigins))
            ),
        ]
        for (path, file) in files {
            routes.get(RouterPath(path)) { _, _ in try Response.json(file, headers: caching) }
        }
    }
}
