// Stand-in for WebKit as Swift imports it from the iOS 26 / macOS 26 SDK: only the script-message bridge and
// what it needs. Type-checking only; every body is `fatalError("stand-in")` and never runs.
// Each declaration was checked against its developer.apple.com page; see Tests/AppleSDK/README.md.
// Every class here is `@MainActor` in the SDK (and so Sendable); both handler protocols are `@MainActor`.

// The real module re-exports Foundation and UIKit (iOS) or AppKit (macOS), as WKWebView is a UIView / NSView.
@_exported import Foundation

#if canImport(FoundationNetworking)
// URLRequest (WKFrameInfo.request) lives in FoundationNetworking on Linux.
@_exported import FoundationNetworking
#endif
#if canImport(UIKit)
@_exported import UIKit
#else
@_exported import AppKit
#endif

/// `@MainActor protocol WKScriptMessageHandler : NSObjectProtocol` —
/// https://developer.apple.com/documentation/webkit/wkscriptmessagehandler
@available(iOS 8.0, macOS 10.10, *)
@MainActor
public protocol WKScriptMessageHandler: NSObjectProtocol {
    /// `func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)` (required)
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

/// `@MainActor protocol WKScriptMessageHandlerWithReply : NSObjectProtocol` —
/// https://developer.apple.com/documentation/webkit/wkscriptmessagehandlerwithreply
///
/// Its one (required) Objective-C method is imported twice and a conforming type implements either form:
/// - `func userContentController(_:didReceive:replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void)`
/// - `@MainActor func userContentController(_:didReceive:) async -> (Any?, String?)`
/// Swift source cannot say "one of these two", so both are requirements with a default below: implementing
/// neither compiles here (the real SDK rejects it) — a known gap, see the README.
@available(iOS 14.0, macOS 11.0, *)
@MainActor
public protocol WKScriptMessageHandlerWithReply: NSObjectProtocol {
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    )
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) async -> (Any?, String?)
}

@available(iOS 14.0, macOS 11.0, *)
@MainActor
extension WKScriptMessageHandlerWithReply {
    public func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) { fatalError("stand-in") }

    public func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) async -> (Any?, String?) { fatalError("stand-in") }
}

/// `@MainActor class WKScriptMessage` — https://developer.apple.com/documentation/webkit/wkscriptmessage
@available(iOS 8.0, macOS 10.10, *)
@MainActor
open class WKScriptMessage: NSObject {
    /// `var body: Any { get }`
    public var body: Any { fatalError("stand-in") }
    /// `var frameInfo: WKFrameInfo { get }`
    public var frameInfo: WKFrameInfo { fatalError("stand-in") }
    /// `weak var webView: WKWebView? { get }`
    public var webView: WKWebView? { fatalError("stand-in") }
    /// `var world: WKContentWorld { get }`
    @available(iOS 14.0, macOS 11.0, *)
    public var world: WKContentWorld { fatalError("stand-in") }
    /// `var name: String { get }`
    public var name: String { fatalError("stand-in") }
}

/// `@MainActor class WKFrameInfo` (NSObject, NSCopying) — https://developer.apple.com/documentation/webkit/wkframeinfo
@available(iOS 8.0, macOS 10.10, *)
@MainActor
open class WKFrameInfo: NSObject {
    /// `var isMainFrame: Bool { get }`
    public var isMainFrame: Bool { fatalError("stand-in") }
    /// `var request: URLRequest { get }`
    public var request: URLRequest { fatalError("stand-in") }
    /// `var securityOrigin: WKSecurityOrigin { get }`
    @available(iOS 9.0, macOS 10.11, *)
    public var securityOrigin: WKSecurityOrigin { fatalError("stand-in") }
    /// `weak var webView: WKWebView? { get }`
    @available(iOS 11.0, macOS 10.13, *)
    public var webView: WKWebView? { fatalError("stand-in") }
}

/// `@MainActor class WKSecurityOrigin` — https://developer.apple.com/documentation/webkit/wksecurityorigin
@available(iOS 9.0, macOS 10.11, *)
@MainActor
open class WKSecurityOrigin: NSObject {
    /// ``var `protocol`: String { get }``
    public var `protocol`: String { fatalError("stand-in") }
    /// `var host: String { get }`
    public var host: String { fatalError("stand-in") }
    /// `var port: Int { get }`
    public var port: Int { fatalError("stand-in") }
}

/// `@MainActor class WKContentWorld` — https://developer.apple.com/documentation/webkit/wkcontentworld
@available(iOS 14.0, macOS 11.0, *)
@MainActor
open class WKContentWorld: NSObject {
    /// `class var page: WKContentWorld { get }`
    open class var page: WKContentWorld { fatalError("stand-in") }
    /// `class var defaultClient: WKContentWorld { get }`
    open class var defaultClient: WKContentWorld { fatalError("stand-in") }
    /// `class func world(name: String) -> WKContentWorld`
    open class func world(name: String) -> WKContentWorld { fatalError("stand-in") }
    /// `var name: String? { get }`
    public var name: String? { fatalError("stand-in") }
}

/// `enum WKUserScriptInjectionTime : Int` (NS_ENUM NSInteger; Sendable) —
/// https://developer.apple.com/documentation/webkit/wkuserscriptinjectiontime
@available(iOS 8.0, macOS 10.10, *)
public enum WKUserScriptInjectionTime: Int, Sendable {
    case atDocumentStart = 0
    case atDocumentEnd = 1
}

/// `@MainActor class WKUserScript` (NSObject, NSCopying) — https://developer.apple.com/documentation/webkit/wkuserscript
@available(iOS 8.0, macOS 10.10, *)
@MainActor
open class WKUserScript: NSObject {
    /// `init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool)`
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool) {
        fatalError("stand-in")
    }
    /// `init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool, in contentWorld: WKContentWorld)`
    @available(iOS 14.0, macOS 11.0, *)
    public init(
        source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool,
        in contentWorld: WKContentWorld
    ) {
        fatalError("stand-in")
    }
    /// `var source: String { get }`
    public var source: String { fatalError("stand-in") }
    /// `var injectionTime: WKUserScriptInjectionTime { get }`
    public var injectionTime: WKUserScriptInjectionTime { fatalError("stand-in") }
    /// `var isForMainFrameOnly: Bool { get }`
    public var isForMainFrameOnly: Bool { fatalError("stand-in") }
}

/// `@MainActor class WKUserContentController` (NSObject, NSSecureCoding) —
/// https://developer.apple.com/documentation/webkit/wkusercontentcontroller
@available(iOS 8.0, macOS 10.10, *)
@MainActor
open class WKUserContentController: NSObject {
    public override init() { fatalError("stand-in") }

    /// `var userScripts: [WKUserScript] { get }`
    public var userScripts: [WKUserScript] { fatalError("stand-in") }
    /// `func addUserScript(_ userScript: WKUserScript)`
    public func addUserScript(_ userScript: WKUserScript) { fatalError("stand-in") }
    /// `func removeAllUserScripts()`
    public func removeAllUserScripts() { fatalError("stand-in") }

    /// `func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String)`
    public func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) { fatalError("stand-in") }
    /// `func add(_ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String)`
    @available(iOS 14.0, macOS 11.0, *)
    public func add(
        _ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String
    ) {
        fatalError("stand-in")
    }
    /// `func addScriptMessageHandler(_ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply, contentWorld: WKContentWorld, name: String)`
    @available(iOS 14.0, macOS 11.0, *)
    public func addScriptMessageHandler(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply, contentWorld: WKContentWorld, name: String
    ) { fatalError("stand-in") }
    /// `func removeScriptMessageHandler(forName name: String)`
    public func removeScriptMessageHandler(forName name: String) { fatalError("stand-in") }
    /// `func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld)`
    @available(iOS 14.0, macOS 11.0, *)
    public func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) {
        fatalError("stand-in")
    }
    /// `func removeAllScriptMessageHandlers(from contentWorld: WKContentWorld)`
    @available(iOS 14.0, macOS 11.0, *)
    public func removeAllScriptMessageHandlers(from contentWorld: WKContentWorld) { fatalError("stand-in") }
    /// `func removeAllScriptMessageHandlers()`
    @available(iOS 14.0, macOS 11.0, *)
    public func removeAllScriptMessageHandlers() { fatalError("stand-in") }
}

/// `@MainActor class WKWebViewConfiguration` (NSObject, NSCopying, NSSecureCoding) —
/// https://developer.apple.com/documentation/webkit/wkwebviewconfiguration
@available(iOS 8.0, macOS 10.10, *)
@MainActor
open class WKWebViewConfiguration: NSObject {
    public override init() { fatalError("stand-in") }
    /// `var userContentController: WKUserContentController { get set }`
    public var userContentController: WKUserContentController {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

/// `@MainActor class WKWebView` (UIView on iOS, NSView on macOS) — https://developer.apple.com/documentation/webkit/wkwebview
#if canImport(UIKit)
@available(iOS 8.0, macOS 10.10, *)
@MainActor
open class WKWebView: UIView {
    /// `init(frame: CGRect, configuration: WKWebViewConfiguration)`
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { fatalError("stand-in") }
    /// `@NSCopying var configuration: WKWebViewConfiguration { get }`
    public var configuration: WKWebViewConfiguration { fatalError("stand-in") }
}
#else
@available(iOS 8.0, macOS 10.10, *)
@MainActor
open class WKWebView: NSView {
    /// `init(frame: CGRect, configuration: WKWebViewConfiguration)`
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { fatalError("stand-in") }
    /// `@NSCopying var configuration: WKWebViewConfiguration { get }`
    public var configuration: WKWebViewConfiguration { fatalError("stand-in") }
}
#endif
