import Foundation
import LatchkeyAPI
import WebAuthn

/// What the user's password manager should learn after the server answered, so it stops offering passkeys the server
/// no longer accepts and shows the account's current name: WebAuthn's Signal API
/// (`PublicKeyCredential.signalUnknownCredential`, `signalAllAcceptedCredentials`, `signalCurrentUserDetails`) and
/// its iOS 26 / macOS 26 counterpart, `ASCredentialUpdater`.
public enum PasskeySignal: Sendable, Hashable {
    /// The server does not know this credential (sign-in answered `credential.notFound`): the password manager may
    /// hide or delete it.
    case unknownCredential(relyingPartyIdentifier: String, credentialID: Data)
    /// These are all the credentials the server accepts for the user: others for the same user handle may go.
    case allAcceptedCredentials(relyingPartyIdentifier: String, userHandle: Data, credentialIDs: [Data])
    /// The account's current name (and display name, which the web API carries and iOS does not).
    case currentUserDetails(relyingPartyIdentifier: String, userHandle: Data, name: String, displayName: String)

    /// The WebAuthn method that carries this signal on the web.
    public var webMethod: String {
        switch self {
        case .unknownCredential: "signalUnknownCredential"
        case .allAcceptedCredentials: "signalAllAcceptedCredentials"
        case .currentUserDetails: "signalCurrentUserDetails"
        }
    }

    /// The signals an answer of the server carries (`"signals"` of a sign-in, sign-up, passkey list, rename or
    /// removal): ``accountState(relyingPartyIdentifier:userHandle:acceptedCredentialIDs:name:displayName:)``.
    /// Credential IDs that are not base64url are left out.
    public static func accountState(_ signals: CredentialSignals) -> [PasskeySignal] {
        accountState(
            relyingPartyIdentifier: signals.rpId, userHandle: Base64URL.decode(signals.userId).map { Data($0) },
            acceptedCredentialIDs: signals.allAcceptedCredentialIds.compactMap {
                Base64URL.decode($0).map { Data($0) }
            },
            name: signals.name, displayName: signals.displayName
        )
    }

    /// The signals for a signed-in account: its accepted credentials and its current name, in that order.
    /// Nothing when the server sent no user handle or no RP ID (an old server).
    public static func accountState(
        relyingPartyIdentifier: String?, userHandle: Data?, acceptedCredentialIDs: [Data], name: String,
        displayName: String
    ) -> [PasskeySignal] {
        guard let rpID = relyingPartyIdentifier, !rpID.isEmpty, let userHandle, !userHandle.isEmpty else { return [] }
        return [
            .allAcceptedCredentials(
                relyingPartyIdentifier: rpID, userHandle: userHandle, credentialIDs: acceptedCredentialIDs),
            .currentUserDetails(
                relyingPartyIdentifier: rpID, userHandle: userHandle, name: name, displayName: displayName),
        ]
    }
}
