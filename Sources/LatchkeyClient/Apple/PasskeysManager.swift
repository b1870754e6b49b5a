#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation
import WebAuthn

// Apple platforms only; not compiled on Linux. Everything it decides is in the platform-independent files
// beside it (PlatformRequests, PlatformCredentials, AuthorizationErrorMapping), which are tested there.

extension ASAuthorizationPlatformPublicKeyCredentialRegistration: PlatformRegistrationResult {
    public var reportedTransports: [AuthenticatorTransport] { [] }
    public var attachment: AuthenticatorAttachment? { .platform }
}

extension ASAuthorizationSecurityKeyPublicKeyCredentialRegistration: PlatformRegistrationResult {
    public var reportedTransports: [AuthenticatorTransport] { [] }
    public var attachment: AuthenticatorAttachment? { .crossPlatform }
}

extension ASAuthorizationPlatformPublicKeyCredentialAssertion: PlatformAssertionResult {
    public var attachment: AuthenticatorAttachment? { .platform }
}

extension ASAuthorizationSecurityKeyPublicKeyCredentialAssertion: PlatformAssertionResult {
    public var attachment: AuthenticatorAttachment? { .crossPlatform }
}

/// Receives a passkey registration (seed 001's delegate API).
public protocol PasskeysRegistrationDelegate: AnyObject {
    func passkeysManager(_ manager: PasskeysManager, didRegister credential: RegistrationCredential)
}

/// Receives a passkey assertion.
public protocol PasskeysAuthenticationDelegate: AnyObject {
    func passkeysManager(_ manager: PasskeysManager, didAuthenticate credential: AuthenticationCredential)
}

/// Receives failures, with the stable code.
public protocol PasskeysErrorDelegate: AnyObject {
    func passkeysManager(_ manager: PasskeysManager, didFailWith error: AuthenticatorError)
}

/// Passkeys through AuthenticationServices: an ``Authenticator`` (async) and the delegate API.
@available(iOS 16.0, macOS 13.0, *)
@MainActor
public final class PasskeysManager: NSObject, Authenticator, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding {
    public weak var registrationDelegate: PasskeysRegistrationDelegate?
    public weak var authenticationDelegate: PasskeysAuthenticationDelegate?
    public weak var errorDelegate: PasskeysErrorDelegate?
    /// The window the sheet appears over.
    public var anchor: ASPresentationAnchor?
    /// Used when the options name no RP ID.
    public let relyingPartyIdentifier: String
    /// Ask for security keys as well as platform passkeys.
    public var allowsSecurityKeys: Bool

    private var pending = PendingCeremony<ASAuthorizationCredential>()

    public init(relyingPartyIdentifier: String, allowsSecurityKeys: Bool = true, anchor: ASPresentationAnchor? = nil) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.allowsSecurityKeys = allowsSecurityKeys
        self.anchor = anchor
    }

    // MARK: Authenticator

    public nonisolated func register(options: PublicKeyCredentialCreationOptions) async throws(AuthenticatorError) -> RegistrationCredential {
        let credential = try await perform { manager throws(AuthenticatorError) in
            try manager.registrationRequests(PlatformRegistrationRequest(options: options, defaultRelyingPartyIdentifier: manager.relyingPartyIdentifier))
        }
        guard let result = credential as? (any PlatformRegistrationResult) else {
            throw AuthenticatorError(.failed, "AuthenticationServices returned no registration")
        }
        return try PlatformCredentialMapping.registration(result)
    }

    public nonisolated func authenticate(options: PublicKeyCredentialRequestOptions) async throws(AuthenticatorError) -> AuthenticationCredential {
        let credential = try await perform { manager throws(AuthenticatorError) in
            try manager.assertionRequests(PlatformAssertionRequest(options: options, defaultRelyingPartyIdentifier: manager.relyingPartyIdentifier))
        }
        guard let result = credential as? (any PlatformAssertionResult) else {
            throw AuthenticatorError(.failed, "AuthenticationServices returned no assertion")
        }
        return PlatformCredentialMapping.assertion(result)
    }

    // MARK: Delegate API

    /// Registers and reports to ``registrationDelegate`` or ``errorDelegate``.
    public func beginRegistration(options: PublicKeyCredentialCreationOptions) {
        Task {
            do { registrationDelegate?.passkeysManager(self, didRegister: try await register(options: options)) }
            catch { errorDelegate?.passkeysManager(self, didFailWith: error) }
        }
    }

    /// Authenticates and reports to ``authenticationDelegate`` or ``errorDelegate``.
    public func beginAuthentication(options: PublicKeyCredentialRequestOptions) {
        Task {
            do { authenticationDelegate?.passkeysManager(self, didAuthenticate: try await authenticate(options: options)) }
            catch { errorDelegate?.passkeysManager(self, didFailWith: error) }
        }
    }

    // MARK: Requests

    private func registrationRequests(_ request: PlatformRegistrationRequest) -> [ASAuthorizationRequest] {
        let platform = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyIdentifier)
            .createCredentialRegistrationRequest(challenge: request.challenge, name: request.userName, userID: request.userID)
        platform.userVerificationPreference = .init(rawValue: request.userVerificationPreference)
        platform.attestationPreference = .init(rawValue: request.attestationPreference)
        if #available(iOS 17.4, macOS 14.4, *) {
            platform.excludedCredentials = request.excludedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
        }
        guard allowsSecurityKeys else { return [platform] }
        let key = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyIdentifier)
            .createCredentialRegistrationRequest(
                challenge: request.challenge, displayName: request.userName, name: request.userName, userID: request.userID
            )
        key.credentialParameters = [ASAuthorizationPublicKeyCredentialParameters(algorithm: .ES256)]
        key.excludedCredentials = request.excludedCredentialIDs.map {
            ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(credentialID: $0, transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported)
        }
        key.userVerificationPreference = .init(rawValue: request.userVerificationPreference)
        return [platform, key]
    }

    private func assertionRequests(_ request: PlatformAssertionRequest) -> [ASAuthorizationRequest] {
        let platform = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyIdentifier)
            .createCredentialAssertionRequest(challenge: request.challenge)
        platform.allowedCredentials = request.allowedCredentialIDs.map(ASAuthorizationPlatformPublicKeyCredentialDescriptor.init)
        platform.userVerificationPreference = .init(rawValue: request.userVerificationPreference)
        guard allowsSecurityKeys else { return [platform] }
        let key = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyIdentifier)
            .createCredentialAssertionRequest(challenge: request.challenge)
        key.allowedCredentials = request.allowedCredentialIDs.map {
            ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(credentialID: $0, transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported)
        }
        key.userVerificationPreference = .init(rawValue: request.userVerificationPreference)
        return [platform, key]
    }

    // MARK: The controller

    /// Builds the requests on the main actor, runs the controller, and maps its errors to stable codes.
    private nonisolated func perform(
        _ makeRequests: @MainActor @Sendable (PasskeysManager) throws(AuthenticatorError) -> [ASAuthorizationRequest]
    ) async throws(AuthenticatorError) -> ASAuthorizationCredential {
        do {
            return try await run(makeRequests)
        } catch let error as AuthenticatorError {
            throw error
        } catch {
            let error = error as NSError
            throw AuthorizationErrorMapping.error(domain: error.domain, code: error.code, description: error.localizedDescription)
        }
    }

    private func run(
        _ makeRequests: @MainActor @Sendable (PasskeysManager) throws(AuthenticatorError) -> [ASAuthorizationRequest]
    ) async throws -> ASAuthorizationCredential {
        let requests = try makeRequests(self)
        return try await withCheckedThrowingContinuation { continuation in
            guard pending.begin(continuation) else { return }
            let controller = ASAuthorizationController(authorizationRequests: requests)
            controller.delegate = self
            controller.presentationContextProvider = self
            controller.performRequests()
        }
    }

    public nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        MainActor.assumeIsolated {
            pending.finish(.success(authorization.credential))
        }
    }

    public nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated {
            pending.finish(.failure(error))
        }
    }

    public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor ?? ASPresentationAnchor() }
    }
}

#endif
