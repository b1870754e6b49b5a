import Hummingbird
import LatchkeyAPI

/// The files other parties fetch from the RP's domain, served as `application/json` with no redirect:
/// Apple's app-site association (webcredentials), Android's asset links, and WebAuthn related origins.
struct WellKnownRoutes: Sendable {
    let configuration: ServerConfiguration

    /// Adds the three routes, each answering with its file encoded once, here.
    func add(to routes: RouterGroup<ServerRequestContext>) {
        let association = EncodedJSON(AppleAppSiteAssociation(apps: configuration.appleAppIDs))
        let assetLinks = EncodedJSON(configuration.androidApps.map(AssetLinkStatement.init(app:)))
        let related = EncodedJSON(RelatedOrigins(origins: configuration.relatedOrigins))
        let caching: HTTPFields = [.cacheControl: "public, max-age=3600"]
        routes.get(RouterPath(APIPaths.WellKnown.appleAppSiteAssociation)) { _, _ in
            try Response.json(association, headers: caching)
        }
        routes.get(RouterPath(APIPaths.WellKnown.assetLinks)) { _, _ in
            try Response.json(assetLinks, headers: caching)
        }
        routes.get(RouterPath(APIPaths.WellKnown.webAuthnRelatedOrigins)) { _, _ in
            try Response.json(related, headers: caching)
        }
    }
}
