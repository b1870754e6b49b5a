#if canImport(WebKit)
import Foundation
import WebKit

/// Connects a ``PasskeyBridge`` to a `WKWebView`: the page gets `window.latchkeyBridge` (``PasskeyBridge/script``,
/// injected at document start) and its messages to `window.webkit.messageHandlers.latchkey` are answered with
/// the bridge's envelopes.
///
/// ```swift
/// let configuration = WKWebViewConfiguration()
/// let bridge = PasskeyBridge(authenticator: PasskeysManager(relyingPartyIdentifier: "example.com"))
/// PasskeyBridgeMessageHandler(bridge: bridge, allowedHosts: ["example.com"]).install(in: configuration.userContentController)
/// ```
///
/// Only frames that ``BridgeOriginPolicy`` allows are answered (by default the main frame of an https page on
/// an allowed host or its subdomains); others get `notAllowed`. Install it once per content controller.
@MainActor
public final class PasskeyBridgeMessageHandler: NSObject, WKScriptMessageHandlerWithReply {
    public let bridge: PasskeyBridge
    public let policy: BridgeOriginPolicy

    /// A handler answering pages on `allowedHosts` (normally the relying party ID) and their subdomains; in
    /// iframes too when `allowsSubframes`.
    public init(bridge: PasskeyBridge, allowedHosts: [String], allowsSubframes: Bool = false) {
        self.bridge = bridge
        policy = BridgeOriginPolicy(allowedHosts: allowedHosts, allowsSubframes: allowsSubframes)
        super.init()
    }

    /// Adds the page script and this handler (named ``PasskeyBridge/messageHandlerName``) to `controller`.
    public func install(in controller: WKUserContentController, contentWorld: WKContentWorld = .page) {
        let script = WKUserScript(
            source: PasskeyBridge.script, injectionTime: .atDocumentStart, forMainFrameOnly: !policy.allowsSubframes,
            in: contentWorld
        )
        controller.addUserScript(script)
        controller.addScriptMessageHandler(self, contentWorld: contentWorld, name: PasskeyBridge.messageHandlerName)
    }

    /// Removes the handler from `controller` (the script stays until `removeAllUserScripts()`).
    public func uninstall(from controller: WKUserContentController, contentWorld: WKContentWorld = .page) {
        controller.removeScriptMessageHandler(forName: PasskeyBridge.messageHandlerName, contentWorld: contentWorld)
    }

    public func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        let origin = message.frameInfo.securityOrigin
        let frame = BridgeFrame(
            isMainFrame: message.frameInfo.isMainFrame, scheme: origin.`protocol`, host: origin.host, port: origin.port
        )
        let received = BridgeMessage.receive(body: message.body, from: frame, policy: policy)
        let bridge = bridge
        Task { replyHandler(await bridge.reply(to: received), nil) }
    }
}
#endif
