// Known good: a passkey ceremony the way the SDK wants it. The delegate and presentation protocols are
// @MainActor, so the whole runner is; results are copied into Sendable values on the main actor before they
// leave it. Each KnownGood file is self-contained and compiled for iOS and macOS on every run.
import AuthenticationServices
import Foundation

struct PasskeyRegistration: Sendable {
    let credentialID: Data
    let clientDataJSON: Data
    let attestationObject: Data?
    let crossPlatform: Bool
    let largeBlobSupported: Bool?
    let prfSupported: Bool?
}

enum PasskeyCeremonyError: Error {
    case cancelled
    case unexpectedCredential
    case failed(code: Int)
}

@available(iOS 18.0, macOS 15.0, *)
@MainActor
final class PasskeyRegistrar: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding
{
    private let anchor: ASPresentationAnchor
    private var continuation: CheckedContinuation<PasskeyRegistration, any Error>?

    init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    func register(relyingParty: String, challenge: Data, userID: Data, userName: String, excluded: [Data])
        async throws -> PasskeyRegistration
    {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
        let request = provider.createCredentialRegistrationRequest(challenge: challenge, name: userName, userID: userID)
        request.userVerificationPreference = .preferred
        request.attestationPreference = .none
        request.excludedCredentials = excluded.map(ASAuthorizationPlatformPublicKeyCredentialDescriptor.init)
        request.largeBlob = .supportPreferred
        request.prf = .checkForSupport

        let key = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
            .createCredentialRegistrationRequest(
                challenge: challenge, displayName: userName, name: userName, userID: userID)
        key.credentialParameters = [ASAuthorizationPublicKeyCredentialParameters(algorithm: .ES256)]
        key.excludedCredentials = excluded.map {
            ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
                credentialID: $0,
                transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported
            )
        }
        key.residentKeyPreference = .required

        return try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            let controller = ASAuthorizationController(authorizationRequests: [request, key])
            controller.delegate = self
            controller.presentationContextProvider = self
            controller.performRequests(options: .preferImmediatelyAvailableCredentials)
        }
    }

    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        let result: Result<PasskeyRegistration, any Error>
        switch authorization.credential {
        case let platform as ASAuthorizationPlatformPublicKeyCredentialRegistration:
            result = .success(
                PasskeyRegistration(
                    credentialID: platform.credentialID, clientDataJSON: platform.rawClientDataJSON,
                    attestationObject: platform.rawAttestationObject,
                    crossPlatform: platform.attachment == .crossPlatform,
                    largeBlobSupported: platform.largeBlob?.isSupported, prfSupported: platform.prf?.isSupported
                ))
        case let key as ASAuthorizationSecurityKeyPublicKeyCredentialRegistration:
            result = .success(
                PasskeyRegistration(
                    credentialID: key.credentialID, clientDataJSON: key.rawClientDataJSON,
                    attestationObject: key.rawAttestationObject, crossPlatform: true,
                    largeBlobSupported: nil, prfSupported: nil
                ))
        default:
            result = .failure(PasskeyCeremonyError.unexpectedCredential)
        }
        continuation?.resume(with: result)
        continuation = nil
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        let mapped: PasskeyCeremonyError
        switch error {
        case ASAuthorizationError.canceled:
            mapped = .cancelled
        case let error as ASAuthorizationError where error.code == .matchedExcludedCredential:
            mapped = .failed(code: error.code.rawValue)
        default:
            mapped = .failed(code: (error as NSError).code)
        }
        continuation?.resume(throwing: mapped)
        continuation = nil
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor
    }
}

/// A nonisolated caller: only Sendable values cross the actor boundary.
@available(iOS 18.0, macOS 15.0, *)
func registerFromAnywhere(_ registrar: PasskeyRegistrar, challenge: Data) async throws -> Data {
    let registration = try await registrar.register(
        relyingParty: "example.com", challenge: challenge, userID: Data([1]), userName: "ann", excluded: []
    )
    return registration.credentialID
}
