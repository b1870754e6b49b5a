// Stand-in for AuthenticationServices as Swift imports it from the iOS 26 / macOS 26 SDK: only what Latchkey
// uses or is about to use, each declaration checked against its developer.apple.com page (and, for availability
// and nullability, the SDK headers); see Tests/AppleSDK/README.md. Type-checking only: every body is
// `fatalError("stand-in")` and never runs.
//
// How it differs from the real module (see the README's limits):
// - Objective-C `optional` protocol requirements cannot be expressed without @objc, so they are plain
//   requirements with an empty default implementation in a protocol extension (marked "optional in the SDK").
// - NS_UNAVAILABLE `init()`/`new` become `@available(*, unavailable) init()`.
// - Classes are NSObject subclasses and not Sendable: the headers are audited with
//   `NS_HEADER_AUDIT_BEGIN(nullability, sendability)` and mark none of these classes NS_SWIFT_SENDABLE (the
//   "Conforms To: Sendable" lines on some current DocC pages are not what the compiler sees).
// - Availability attributes are transcribed but not enforced on Linux.

// The real module re-exports Foundation and, through ASFoundation.h, UIKit (iOS) or AppKit (macOS).
@_exported import Foundation

#if canImport(UIKit)
@_exported import UIKit

/// `typealias ASPresentationAnchor = UIWindow` on iOS —
/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor
@available(iOS 12.0, macOS 10.15, *)
public typealias ASPresentationAnchor = UIWindow
#else
@_exported import AppKit

/// `typealias ASPresentationAnchor = NSWindow` on macOS —
/// https://developer.apple.com/documentation/authenticationservices/aspresentationanchor
@available(iOS 12.0, macOS 10.15, *)
public typealias ASPresentationAnchor = NSWindow
#endif
