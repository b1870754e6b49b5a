import Hummingbird
import LatchkeyAPI

/// The files other parties fetch from the RP's domain, served as `application/json` with no redirect:
/// Apple's app-site association (webcredentials), Android's asset links, and WebAuthn related origins.
struct WellKnownRoutes: Sendable {
    let configuration: ServerConfiguration

    func add(to routes: RouterGroup<ServerRequestContext>) {
        let association = AppleAppSiteAssociation(apps: configuration.appleAppIDs)
        let assetLinks = configuration.androidApps.map(AssetLinkStatement.init(app:))
        let related = RelatedOrigins(origins: configuration.relatedOrigins)
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
