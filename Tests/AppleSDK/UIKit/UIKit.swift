// Stand-in for UIKit as Swift imports it from the iOS 26 SDK: only the classes Latchkey touches (the
// presentation anchor and app life-cycle notifications). Type-checking only; bodies are `fatalError("stand-in")`.
// Each declaration was checked against its developer.apple.com page; see Tests/AppleSDK/README.md.
// Not modelled: NSCoding conformances, `init?(coder:)`, and every member not listed here.
@_exported import Foundation

/// `@MainActor class UIResponder` — https://developer.apple.com/documentation/uikit/uiresponder
@available(iOS 2.0, *)
@MainActor
open class UIResponder: NSObject {
    public override init() { fatalError("stand-in") }
}

/// `@MainActor class UIView` (inherits UIResponder) — https://developer.apple.com/documentation/uikit/uiview
@available(iOS 2.0, *)
@MainActor
open class UIView: UIResponder {
    public init(frame: CGRect) { fatalError("stand-in") }
}

/// `@MainActor class UIWindow` (inherits UIView) — https://developer.apple.com/documentation/uikit/uiwindow
/// Initializers documented there: `convenience init()`, `init(frame: CGRect)`, `init(windowScene:)` (the last
/// is not modelled: UIWindowScene is not).
@available(iOS 2.0, *)
@MainActor
open class UIWindow: UIView {
    public override init(frame: CGRect) { fatalError("stand-in") }
    public convenience init() { fatalError("stand-in") }
}

/// `@MainActor class UIApplication` (inherits UIResponder) — https://developer.apple.com/documentation/uikit/uiapplication
@available(iOS 2.0, *)
@MainActor
open class UIApplication: UIResponder {
    /// `class var shared: UIApplication { get }`
    open class var shared: UIApplication { fatalError("stand-in") }

    /// `nonisolated class let willEnterForegroundNotification: NSNotification.Name` (iOS 4.0) —
    /// https://developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification
    /// (Swift source cannot spell `class let`; a `static let` is the same to callers.)
    @available(iOS 4.0, *)
    nonisolated public static let willEnterForegroundNotification =
        NSNotification.Name("UIApplicationWillEnterForegroundNotification")

    /// `nonisolated class let didBecomeActiveNotification: NSNotification.Name` —
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    nonisolated public static let didBecomeActiveNotification =
        NSNotification.Name("UIApplicationDidBecomeActiveNotification")
}

/// `@MainActor class UIControl` (inherits UIView) — https://developer.apple.com/documentation/uikit/uicontrol
@available(iOS 2.0, *)
@MainActor
open class UIControl: UIView {}

/// `@MainActor class UITextField` (inherits UIControl; UITextInput, so UITextInputTraits) —
/// https://developer.apple.com/documentation/uikit/uitextfield
@available(iOS 2.0, *)
@MainActor
open class UITextField: UIControl {
    /// `var textContentType: UITextContentType! { get set }` (`optional` in UITextInputTraits, implemented here) —
    /// https://developer.apple.com/documentation/uikit/uitextinputtraits/textcontenttype
    @available(iOS 10.0, *)
    public var textContentType: UITextContentType! { get { fatalError("stand-in") } set { fatalError("stand-in") } }
}

/// `struct UITextContentType` (NS_TYPED_ENUM over NSString) —
/// https://developer.apple.com/documentation/uikit/uitextcontenttype
@available(iOS 10.0, *)
public struct UITextContentType: Hashable, Equatable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `static let username: UITextContentType` (iOS 11.0) —
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/username
    @available(iOS 11.0, *)
    public static let username = UITextContentType(rawValue: "username")
    /// `static let password: UITextContentType` (iOS 11.0) —
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/password
    @available(iOS 11.0, *)
    public static let password = UITextContentType(rawValue: "password")
}
