import Foundation

/// Where the app's server is and which domain its passkeys belong to.
///
/// The relying party ID is the domain the app's Associated Domains entitlement names (`webcredentials:example.com`);
/// that domain must serve `/.well-known/apple-app-site-association` listing this app, which `latchkey serve` does
/// with `--apple-app-id TEAMID.com.example.PasskeyApp`. docs/CLIENT.md, "The example app".
public enum AppConfiguration {
    /// The server's base URL, from `LatchkeyServerURL` in the app's Info.plist (`https://example.com`).
    public static var server: URL? {
        (Bundle.main.object(forInfoDictionaryKey: "LatchkeyServerURL") as? String).flatMap(URL.init(string:))
    }

    /// Where the session token and the Apple user ID are kept in the Keychain.
    public static let keychainService = "com.example.PasskeyApp.session"
}
