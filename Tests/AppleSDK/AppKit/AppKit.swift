// Stand-in for AppKit as Swift imports it from the macOS 26 SDK: only the classes Latchkey and the example app touch
// (the presentation anchor, the key window and app life-cycle notifications). Type-checking only; bodies are `fatalError("stand-in")`.
// Each declaration was checked against its developer.apple.com page; see Tests/AppleSDK/README.md.
// Not modelled: NSCoding conformances, `init?(coder:)`, and every member not listed here.
@_exported import Foundation

/// `@MainActor class NSResponder` — https://developer.apple.com/documentation/appkit/nsresponder
@available(macOS 10.0, *)
@MainActor
open class NSResponder: NSObject {
    public override init() { fatalError("stand-in") }
}

/// `@MainActor class NSView` (inherits NSResponder) — https://developer.apple.com/documentation/appkit/nsview
@available(macOS 10.0, *)
@MainActor
open class NSView: NSResponder {
    /// `init(frame frameRect: NSRect)`
    public init(frame frameRect: NSRect) { fatalError("stand-in") }
}

/// `@MainActor class NSWindow` (inherits NSResponder) — https://developer.apple.com/documentation/appkit/nswindow
/// Its designated `init(contentRect:styleMask:backing:defer:)` is not modelled (nor are StyleMask and
/// BackingStoreType); `NSWindow()` — NSResponder's `-init`, which Swift imports for NSWindow — is.
@available(macOS 10.0, *)
@MainActor
open class NSWindow: NSResponder {
    public override init() { fatalError("stand-in") }
}

/// `class NSApplication` (inherits NSResponder, so main-actor isolated) —
/// https://developer.apple.com/documentation/appkit/nsapplication
@available(macOS 10.0, *)
open class NSApplication: NSResponder {
    /// `class var shared: NSApplication { get }`
    open class var shared: NSApplication { fatalError("stand-in") }

    /// `var keyWindow: NSWindow? { get }` — https://developer.apple.com/documentation/appkit/nsapplication/keywindow
    open var keyWindow: NSWindow? { fatalError("stand-in") }

    /// `class let didBecomeActiveNotification: NSNotification.Name` — not `nonisolated`, unlike UIKit's:
    /// https://developer.apple.com/documentation/appkit/nsapplication/didbecomeactivenotification
    /// (Swift source cannot spell `class let`; a `static let` is the same to callers.)
    public static let didBecomeActiveNotification = NSNotification.Name("NSApplicationDidBecomeActiveNotification")

    /// `class let willBecomeActiveNotification: NSNotification.Name` —
    /// https://developer.apple.com/documentation/appkit/nsapplication/willbecomeactivenotification
    public static let willBecomeActiveNotification = NSNotification.Name("NSApplicationWillBecomeActiveNotification")
}

/// `@MainActor var NSApp: NSApplication!` — https://developer.apple.com/documentation/appkit/nsapp
@MainActor public var NSApp: NSApplication! { fatalError("stand-in") }
