#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation
import WebAuthn

/// Receives a passkey registration (the delegate API of delegate-style apps).
@MainActor
public protocol PasskeysRegistrationDelegate: AnyObject {
    func passkeysManager(_ manager: PasskeysManager, didRegister credential: RegistrationCredential)
}

/// Receives a passkey assertion.
@MainActor
public protocol PasskeysAuthenticationDelegate: AnyObject {
    func passkeysManager(_ manager: PasskeysManager, didAuthenticate credential: AuthenticationCredential)
}

/// Receives failures, with the stable code.
@MainActor
public protocol PasskeysErrorDelegate: AnyObject {
    func passkeysManager(_ manager: PasskeysManager, didFailWith error: AuthenticatorError)
}

/// Passkeys and security keys through AuthenticationServices: an ``Authenticator`` (async) with a delegate API beside
/// it, AutoFill-assisted sign-in, and ``cancel()``.
///
/// It builds the requests from the server's options (``PlatformRegistrationRequest``, ``PlatformAssertionRequest``),
/// runs one `ASAuthorizationController` at a time, and returns the WebAuthn JSON the server takes, with the
/// attachment and transports the system reported. Failures carry stable ``AuthenticatorError/Code``s
/// (``AuthorizationErrorMapping``). A ceremony ends after its options' `timeout`, or ``defaultTimeout``.
@MainActor
public final class PasskeysManager: Authenticator {
    public weak var registrationDelegate: (any PasskeysRegistrationDelegate)?
    public weak var authenticationDelegate: (any PasskeysAuthenticationDelegate)?
    public weak var errorDelegate: (any PasskeysErrorDelegate)?
    /// Used when the options name no RP ID.
    public let relyingPartyIdentifier: String
    /// Offer security keys beside platform passkeys.
    public var allowsSecurityKeys: Bool
    /// How long a ceremony may wait for the user when the options give no `timeout`.
    public var defaultTimeout: Duration = .seconds(300)
    /// The window the sheet appears over.
    public var anchor: ASPresentationAnchor? {
        get { performer.anchor }
        set { performer.anchor = newValue }
    }

    private let performer: AuthorizationPerformer

    public init(relyingPartyIdentifier: String, allowsSecurityKeys: Bool = true, anchor: ASPresentationAnchor? = nil) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.allowsSecurityKeys = allowsSecurityKeys
        performer = AuthorizationPerformer(anchor: anchor)
    }

    // MARK: Authenticator

    /// Creates a passkey (or a security key credential) for the server's creation options.
    public func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential
    {
        try await register(options: options, style: .standard)
    }

    /// Creates a passkey; with `.conditional` (iOS 18 / macOS 15), the automatic upgrade after a password sign-in,
    /// which shows no sheet and fails quietly when the password manager declines.
    public func register(
        options: PublicKeyCredentialCreationOptions, style: PlatformRegistrationRequest.Style
    ) async throws(AuthenticatorError) -> RegistrationCredential {
        let request = try PlatformRegistrationRequest(
            options: options, defaultRelyingPartyIdentifier: relyingPartyIdentifier, style: style,
            allowsSecurityKeys: allowsSecurityKeys
        )
        let requests = try request.authorizationRequests()
        return try await performer.perform(requests, presentation: .modal, timeout: request.timeout ?? defaultTimeout)
            .registration()
    }

    /// The passkey sign-up sheet (iOS 26 / macOS 26): the system asks for the user's email address or phone number
    /// (and name) and makes the passkey for the server's creation options in one step.
    @available(iOS 26.0, macOS 26.0, *)
    public func createAccount(
        options: PublicKeyCredentialCreationOptions, acceptedContacts: [AccountCreationRequest.ContactKind] = [.email],
        requestsName: Bool = true
    ) async throws(AuthenticatorError) -> AccountCreationResult {
        let request = try AccountCreationRequest(
            options: options, defaultRelyingPartyIdentifier: relyingPartyIdentifier, acceptedContacts: acceptedContacts,
            requestsName: requestsName
        )
        return try await performer.perform(
            [request.authorizationRequest()], presentation: .modal, timeout: request.timeout ?? defaultTimeout
        )
        .accountCreation()
    }

    /// The automatic passkey upgrade after a password sign-in (iOS 18 / macOS 15): `register(options:style: .conditional)`.
    /// - Throws: ``AuthenticatorError/Code/unsupported`` on older systems.
    public func registerConditionally(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError)
        -> RegistrationCredential
    {
        try await register(options: options, style: .conditional)
    }

    /// Signs in with a passkey or security key for the server's request options, in the system sheet.
    public func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError)
        -> AuthenticationCredential
    {
        try await authenticate(options: options, presentation: .modal)
    }

    /// Signs in only if a passkey is on this device, without a sheet otherwise (``AuthenticatorError/Code/noCredentials``
    /// at once): for a sign-in attempted at launch.
    public func authenticateIfImmediatelyAvailable(options: PublicKeyCredentialRequestOptions)
        async throws(AuthenticatorError) -> AuthenticationCredential
    {
        try await authenticate(options: options, presentation: .immediatelyAvailable)
    }

    #if canImport(UIKit) && !targetEnvironment(macCatalyst)
    /// AutoFill-assisted sign-in (iOS): passkeys appear in the QuickType bar of the text field whose
    /// `textContentType` is `.username`; returns when the user picks one. Start it when the sign-in screen
    /// appears and ``cancel()`` it when the user goes another way (types a name, taps "Sign in with Apple").
    public func authenticateWithAutoFill(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError)
        -> AuthenticationCredential
    {
        try await authenticate(options: options, presentation: .autoFill)
    }
    #endif

    /// Ends the ceremony in flight, if any; its caller gets ``AuthenticatorError/Code/cancelled``.
    public func cancel() {
        performer.cancel()
    }

    private func authenticate(
        options: PublicKeyCredentialRequestOptions, presentation: AuthorizationPresentation
    ) async throws(AuthenticatorError) -> AuthenticationCredential {
        let request = try PlatformAssertionRequest(
            options: options, defaultRelyingPartyIdentifier: relyingPartyIdentifier,
            allowsSecurityKeys: allowsSecurityKeys
        )
        // AutoFill waits for the user to focus the field: it has no timeout of its own.
        let timeout = presentation == .autoFill ? nil : request.timeout ?? defaultTimeout
        let requests = request.authorizationRequests(for: presentation)
        return try await performer.perform(requests, presentation: presentation, timeout: timeout).assertion()
    }

    // MARK: Delegate API

    /// Registers and reports to ``registrationDelegate`` or ``errorDelegate``.
    public func beginRegistration(options: PublicKeyCredentialCreationOptions) {
        report { manager throws(AuthenticatorError) in
            let credential = try await manager.register(options: options)
            manager.registrationDelegate?.passkeysManager(manager, didRegister: credential)
        }
    }

    /// Signs in and reports to ``authenticationDelegate`` or ``errorDelegate``.
    public func beginAuthentication(options: PublicKeyCredentialRequestOptions) {
        report { manager throws(AuthenticatorError) in
            let credential = try await manager.authenticate(options: options)
            manager.authenticationDelegate?.passkeysManager(manager, didAuthenticate: credential)
        }
    }

    #if canImport(UIKit) && !targetEnvironment(macCatalyst)
    /// AutoFill-assisted sign-in, reported to ``authenticationDelegate`` or ``errorDelegate``.
    public func beginAutoFillAssistedAuthentication(options: PublicKeyCredentialRequestOptions) {
        report { manager throws(AuthenticatorError) in
            let credential = try await manager.authenticateWithAutoFill(options: options)
            manager.authenticationDelegate?.passkeysManager(manager, didAuthenticate: credential)
        }
    }
    #endif

    private func report(_ ceremony: @escaping @MainActor (PasskeysManager) async throws(AuthenticatorError) -> Void) {
        Task { @MainActor in
            do throws(AuthenticatorError) {
                try await ceremony(self)
            } catch {
                errorDelegate?.passkeysManager(self, didFailWith: error)
            }
        }
    }
}
#endif
