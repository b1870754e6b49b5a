// Known good: app life-cycle notifications (UIKit's are nonisolated, AppKit's are main-actor isolated), the
// iOS 26 Signal API, and passkey account creation.
import AuthenticationServices
import Foundation

#if canImport(UIKit)
import UIKit

func foregroundNotifications() -> [Notification.Name] {
    [UIApplication.willEnterForegroundNotification, UIApplication.didBecomeActiveNotification]
}

@MainActor
func autoFill(_ controller: ASAuthorizationController) {
    controller.performAutoFillAssistedRequests()
}
#else
import AppKit

@MainActor
func foregroundNotifications() -> [Notification.Name] {
    [NSApplication.willBecomeActiveNotification, NSApplication.didBecomeActiveNotification]
}
#endif

@available(iOS 26.0, macOS 26.0, *)
func signalAccepted(relyingParty: String, userHandle: Data, credentialIDs: [Data]) async {
    let updater = ASCredentialUpdater()
    try? await updater.reportAllAcceptedPublicKeyCredentials(
        relyingPartyIdentifier: relyingParty, userHandle: userHandle, acceptedCredentialIDs: credentialIDs
    )
    try? await updater.reportUnknownPublicKeyCredential(relyingPartyIdentifier: relyingParty, credentialID: Data())
    try? await updater.reportPublicKeyCredentialUpdate(
        relyingPartyIdentifier: relyingParty, userHandle: userHandle, newName: "ann")
}

@available(iOS 26.0, macOS 26.0, *)
@MainActor
func accountCreationRequest(relyingParty: String, challenge: Data, userID: Data) -> ASAuthorizationRequest {
    ASAuthorizationAccountCreationProvider().createPlatformPublicKeyCredentialRegistrationRequest(
        acceptedContactIdentifiers: [.email, .phoneNumber], shouldRequestName: true,
        relyingPartyIdentifier: relyingParty, challenge: challenge, userID: userID
    )
}

@available(iOS 26.0, macOS 26.0, *)
@MainActor
func contact(of credential: ASAuthorizationAccountCreationPlatformPublicKeyCredential) -> String {
    switch credential.contactIdentifier {
    case .email(let email): email.value
    case .phoneNumber(let phone): phone.value
    }
}
