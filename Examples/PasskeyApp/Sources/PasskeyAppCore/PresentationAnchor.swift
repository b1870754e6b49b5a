import AuthenticationServices

#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

/// The window the system's sign-in sheets appear over: the key window of the app's active scene.
@MainActor
func presentationAnchor() -> ASPresentationAnchor {
    #if canImport(UIKit)
    let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
    let active = scenes.first { $0.activationState == .foregroundActive } ?? scenes.first
    return active?.keyWindow ?? ASPresentationAnchor()
    #else
    return NSApplication.shared.keyWindow ?? ASPresentationAnchor()
    #endif
}
