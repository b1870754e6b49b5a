import WebAuthn

/// One sheet for every way in: Sign in with Apple, the user's saved passwords and their passkeys offered together in
/// one `ASAuthorizationController`, so the user picks whichever they have (``SignInOutcome`` says which).
public struct SignInSheetRequest: Sendable, Hashable {
    /// The Sign in with Apple request, or nil to leave it out.
    public var appleID: SignInWithAppleRequest?
    /// Whether to offer saved passwords (`ASAuthorizationPasswordProvider`).
    public var includesPasswords: Bool
    /// The passkey assertion, from the server's sign-in options (its ticket stays with the app), or nil.
    public var passkey: PlatformAssertionRequest?

    /// A sheet offering each way in that is given.
    /// - Parameters:
    ///   - includesPasswords: whether to offer saved passwords.
    ///   - appleID: the Sign in with Apple request, made with the nonce Latchkey's server issued
    ///     (`SignInWithAppleRequest(nonce: SignInWithAppleNonce(raw: try await client.appleNonce().nonce))`), or nil.
    ///   - passkeyOptions: the server's sign-in options (`POST /v1/passkeys/authentication/options`), usually
    ///     username-less.
    ///   - defaultRelyingPartyIdentifier: used when the options name no RP ID.
    /// - Throws: ``AuthenticatorError/Code/invalidOptions`` when nothing is offered or the passkey options are unusable.
    public init(
        appleID: SignInWithAppleRequest?, includesPasswords: Bool = true,
        passkeyOptions: PublicKeyCredentialRequestOptions? = nil, defaultRelyingPartyIdentifier: String? = nil
    ) throws(AuthenticatorError) {
        self.appleID = appleID
        self.includesPasswords = includesPasswords
        passkey = try passkeyOptions.map { options throws(AuthenticatorError) in
            // The sheet offers platform passkeys; security keys have their own flow (PasskeysManager).
            try PlatformAssertionRequest(
                options: options, defaultRelyingPartyIdentifier: defaultRelyingPartyIdentifier,
                allowsSecurityKeys: false
            )
        }
        guard appleID != nil || includesPasswords || passkey != nil else {
            throw AuthenticatorError(.invalidOptions, "the sign-in sheet offers no way in")
        }
    }

    /// The outcome for what the controller returned: a passkey as `AuthenticationResponseJSON`, an Apple ID
    /// credential checked against this request's `state`, or the saved password.
    func outcome(for result: AuthorizationResult) throws(AuthenticatorError) -> SignInOutcome {
        switch (result, appleID) {
        case (.passkeyAssertion, _) where passkey != nil:
            return .passkey(try result.assertion())
        case (.appleID, let request?):
            return .appleID(try result.appleID(for: request))
        case (.password(let credential), _) where includesPasswords:
            return .password(credential)
        default:
            throw AuthenticatorError(.failed, "the sign-in sheet returned a credential it did not ask for")
        }
    }
}
