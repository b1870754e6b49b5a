/// `/.well-known/apple-app-site-association`: `{"webcredentials":{"apps":["TEAMID.bundle.id",…]}}`.
struct AppleAppSiteAssociation: Codable, Hashable, Sendable {
    struct WebCredentials: Codable, Hashable, Sendable {
        var apps: [String]
    }

    var webcredentials: WebCredentials

    init(apps: [AppleAppID]) {
        webcredentials = WebCredentials(apps: apps.map(\.value))
    }
}

/// One statement of `/.well-known/assetlinks.json` (Digital Asset Links): the app may handle the site's links
/// and use its sign-in credentials.
struct AssetLinkStatement: Codable, Hashable, Sendable {
    struct Target: Codable, Hashable, Sendable {
        var namespace: String
        var package_name: String
        var sha256_cert_fingerprints: [String]
    }

    static let relations = ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"]

    var relation: [String]
    var target: Target

    init(app: AndroidApp) {
        relation = Self.relations
        target = Target(
            namespace: "android_app", package_name: app.packageName,
            sha256_cert_fingerprints: [app.colonSeparatedFingerprint])
    }
}

/// `/.well-known/webauthn`: the related origins that may use this RP ID, `{"origins":[…]}`.
struct RelatedOrigins: Codable, Hashable, Sendable {
    var origins: [String]
}
