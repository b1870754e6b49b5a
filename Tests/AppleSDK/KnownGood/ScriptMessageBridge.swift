// Known good: a WebKit script-message bridge. WKScriptMessageHandlerWithReply and every WK class are
// @MainActor; the message's body is read on the main actor and only Sendable values go to other isolation domains.
import Foundation
import WebKit

/// Work done off the main actor, with Sendable inputs and outputs.
func handleBridgeCall(name: String, payload: String?) async -> String {
    "{\"ok\":true,\"name\":\"\(name)\",\"bytes\":\(payload?.utf8.count ?? 0)}"
}

@available(iOS 14.0, macOS 11.0, *)
@MainActor
final class AsyncBridge: NSObject, WKScriptMessageHandlerWithReply {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
        async -> (Any?, String?)
    {
        guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "example.com" else {
            return (nil, "refused")
        }
        let payload = message.body as? String
        let name = message.name
        return (await handleBridgeCall(name: name, payload: payload), nil)
    }

    func install(in webView: WKWebView) {
        let controller = webView.configuration.userContentController
        controller.addScriptMessageHandler(self, contentWorld: .page, name: "latchkey")
        controller.addUserScript(
            WKUserScript(
                source: "window.latchkey = {}", injectionTime: .atDocumentStart, forMainFrameOnly: true, in: .page
            ))
    }

    func uninstall(from controller: WKUserContentController) {
        controller.removeScriptMessageHandler(forName: "latchkey", contentWorld: .page)
        controller.removeAllUserScripts()
    }
}

@available(iOS 14.0, macOS 11.0, *)
@MainActor
final class CallbackBridge: NSObject, WKScriptMessageHandlerWithReply {
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        let payload = message.body as? String
        let name = message.name
        Task {
            let reply = await handleBridgeCall(name: name, payload: payload)
            replyHandler(reply, nil)
        }
    }
}

@available(iOS 14.0, macOS 11.0, *)
@MainActor
func makeWebView() -> WKWebView {
    let configuration = WKWebViewConfiguration()
    configuration.userContentController = WKUserContentController()
    let webView = WKWebView(frame: .zero, configuration: configuration)
    AsyncBridge().install(in: webView)
    return webView
}
