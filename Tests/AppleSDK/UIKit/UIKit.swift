// Stand-in for UIKit as Swift imports it from the iOS 26 SDK: only the classes Latchkey and the example app touch (the
// presentation anchor, the app's scenes and life-cycle notifications). Type-checking only; bodies are `fatalError("stand-in")`.
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
/// is not modelled).
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

    /// `var connectedScenes: Set<UIScene> { get }` (iOS 13.0) —
    /// https://developer.apple.com/documentation/uikit/uiapplication/connectedscenes
    @available(iOS 13.0, *)
    open var connectedScenes: Set<UIScene> { fatalError("stand-in") }

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
    public var textContentType: UITextContentType! {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
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

/// `@MainActor class UIScene` (inherits UIResponder) — https://developer.apple.com/documentation/uikit/uiscene
@available(iOS 13.0, *)
@MainActor
open class UIScene: UIResponder {
    /// `var activationState: UIScene.ActivationState { get }` —
    /// https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.property
    open var activationState: UIScene.ActivationState { fatalError("stand-in") }

    /// `enum UIScene.ActivationState: Int` — https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }
}

/// `@MainActor class UIWindowScene` (inherits UIScene) — https://developer.apple.com/documentation/uikit/uiwindowscene
@available(iOS 13.0, *)
@MainActor
open class UIWindowScene: UIScene {
    /// `var keyWindow: UIWindow? { get }` (iOS 15.0) — https://developer.apple.com/documentation/uikit/uiwindowscene/keywindow
    @available(iOS 15.0, *)
    open var keyWindow: UIWindow? { fatalError("stand-in") }
}
