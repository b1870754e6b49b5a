#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

extension AppleIDCredentialMonitor {
    /// A monitor that asks AuthenticationServices, again whenever the app comes to the foreground, and reports
    /// `revoked` on `ASAuthorizationAppleIDProvider.credentialRevokedNotification`.
    public convenience init(userID: String, onChange: @escaping @MainActor (AppleIDCredentialState) -> Void) {
        #if canImport(UIKit)
        let foreground = [UIApplication.willEnterForegroundNotification]
        #elseif canImport(AppKit)
        let foreground = [NSApplication.didBecomeActiveNotification]
        #else
        let foreground: [Notification.Name] = []
        #endif
        self.init(
            userID: userID, checkOn: foreground,
            revokedOn: [ASAuthorizationAppleIDProvider.credentialRevokedNotification],
            source: { userID in try await AppleIDCredentialState.current(forUserID: userID) }, onChange: onChange
        )
    }
}
#endif
