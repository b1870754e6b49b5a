import Foundation

/// The browser's RP ID rule (WebAuthn §5.1.3 step 8, §5.1.4.1 step 7): the RP ID is the origin's host or a
/// domain suffix of it; when the options leave it out, it is the origin's host.
///
/// Web origins must be `https`, or `http` on `localhost`. Other origins — an Android app's
/// `android:apk-key-hash:…` — are vouched for by the platform, not the browser, so any RP ID the options
/// name is accepted for them.
enum RelyingPartyIDCheck {
    /// What the rule reads of an origin, parsed once (``VirtualAuthenticator`` keeps the origins it has seen: parsing a
    /// URL was about a tenth of a sign-in's work besides the signature).
    struct Origin: Sendable {
        /// The scheme, lowercased; nil when the origin is not a URL with one.
        let scheme: String?
        /// The host, lowercased.
        let host: String?

        init(_ origin: String) {
            let components = URLComponents(string: origin)
            scheme = components?.scheme?.lowercased()
            host = components?.host?.lowercased()
        }
    }

    /// The RP ID for `requested` at `origin`, whose parts are `parsed`.
    static func rpID(requested: String?, origin: String, parsed: Origin) throws(VirtualAuthenticatorError) -> String {
        guard let scheme = parsed.scheme, scheme == "https" || scheme == "http" else {
            guard let requested, !requested.isEmpty else {
                throw .rpIDNotValidForOrigin(rpID: "", origin: origin)
            }
            return requested
        }
        guard let host = parsed.host, !host.isEmpty,
            scheme == "https" || host == "localhost" || host.hasSuffix(".localhost")
        else {
            throw .rpIDNotValidForOrigin(rpID: requested ?? "", origin: origin)
        }
        guard let requested else { return host }
        let rpID = requested.lowercased()
        guard host == rpID || host.hasSuffix("." + rpID) else {
            throw .rpIDNotValidForOrigin(rpID: requested, origin: origin)
        }
        return requested
    }
}
