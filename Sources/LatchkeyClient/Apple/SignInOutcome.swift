import WebAuthn

/// What the one sign-in sheet (Sign in with Apple, a saved password and a passkey offered together) returned:
/// whichever way in the user picked.
public enum SignInOutcome: Sendable, Hashable {
    /// A passkey assertion: send it to the server's sign-in verify (``NativeClient/authenticationVerify(_:)``)
    /// with the options' ticket.
    case passkey(AuthenticationCredential)
    /// Sign in with Apple: send ``AppleIDCredential/signInRequest(rawNonce:)`` to ``NativeClient/signInWithApple(_:)``.
    case appleID(AppleIDCredential)
    /// A saved password: sign in with the server's password sign-in.
    case password(PasswordCredential)
}
