import Foundation

/// The browser's RP ID rule (WebAuthn §5.1.3 step 8, §5.1.4.1 step 7): the RP ID is the origin's host or a
/// domain suffix of it; when the options leave it out, it is the origin's host.
///
/// Web origins must be `https`, or `http` on `localhost`. Other origins — an Android app's
/// `android:apk-key-hash:…` — are vouched for by the platform, not the browser, so any RP ID the options
/// name is accepted for them.
enum RelyingPartyIDCheck {
    static func rpID(requested: String?, origin: String) throws(VirtualAuthenticatorError) -> String {
        guard let components = URLComponents(string: origin), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http"
        else {
            guard let requested, !requested.isEmpty else {
                throw .rpIDNotValidForOrigin(rpID: "", origin: origin)
            }
            return requested
        }
        guard let host = components.host?.lowercased(), !host.isEmpty,
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
