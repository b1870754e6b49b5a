import LatchkeyClient
import WebKit

/// A hybrid app's web view: pages from example.com (and its subdomains) get `window.latchkeyBridge`, and their
/// passkey requests open the system passkey sheet. As for native passkeys, the app needs the
/// `webcredentials:example.com` associated domain; the passkeys are example.com's, shared with the website.
@MainActor
func makeHybridWebView() -> WKWebView {
    let passkeys = PasskeysManager(relyingPartyIdentifier: "example.com")
    let handler = PasskeyBridgeMessageHandler(
        bridge: PasskeyBridge(authenticator: passkeys), allowedHosts: ["example.com"])
    let configuration = WKWebViewConfiguration()
    handler.install(in: configuration.userContentController)  // the content controller keeps the handler
    return WKWebView(frame: .zero, configuration: configuration)
}
