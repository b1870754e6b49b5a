#if canImport(AuthenticationServices)
import AuthenticationServices
import Crypto
import Foundation

// Copies what AuthenticationServices returned (non-Sendable NSObject subclasses, `Data!` properties) into the
// Sendable value types beside this file, on the main actor where the delegate receives them. Everything decided
// about those values (attachment, transports, extension outputs, missing fields) is in PlatformCredentials.swift,
// tested on Linux.

extension AuthorizationResult {
    /// The value copy of `credential`.
    /// - Throws: ``AuthenticatorError/Code/failed`` for a credential type Latchkey does not request.
    @MainActor
    init(copying credential: any ASAuthorizationCredential) throws(AuthenticatorError) {
        if #available(iOS 26.0, macOS 26.0, *),
            let created = credential as? ASAuthorizationAccountCreationPlatformPublicKeyCredential
        {
            self = .accountCreation(AccountCreationResult(copying: created))
            return
        }
        switch credential {
        case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
            self = .passkeyRegistration(PlatformRegistrationResult(copying: registration))
        case let registration as ASAuthorizationSecurityKeyPublicKeyCredentialRegistration:
            self = .passkeyRegistration(PlatformRegistrationResult(copying: registration))
        case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
            self = .passkeyAssertion(PlatformAssertionResult(copying: assertion))
        case let assertion as ASAuthorizationSecurityKeyPublicKeyCredentialAssertion:
            self = .passkeyAssertion(PlatformAssertionResult(copying: assertion))
        case let appleID as ASAuthorizationAppleIDCredential:
            self = .appleID(AppleIDCredential(copying: appleID))
        case let password as ASPasswordCredential:
            self = .password(PasswordCredential(user: password.user, password: password.password))
        default:
            throw AuthenticatorError(
                .failed, "AuthenticationServices returned a \(type(of: credential)), which Latchkey did not request")
        }
    }
}

extension PlatformRegistrationResult {
    @MainActor
    init(copying registration: ASAuthorizationPlatformPublicKeyCredentialRegistration) {
        self.init(
            provider: .platform, credentialID: registration.credentialID,
            rawClientDataJSON: registration.rawClientDataJSON,
            rawAttestationObject: registration.rawAttestationObject
        )
        if #available(iOS 16.6, macOS 13.5, *) {
            attachment = PlatformAttachment(rawValue: registration.attachment.rawValue)
        }
        if #available(iOS 17.0, macOS 14.0, *), let largeBlob = registration.largeBlob {
            largeBlobSupported = largeBlob.isSupported
        }
        if #available(iOS 18.0, macOS 15.0, *), let prf = registration.prf {
            prfSupported = prf.isSupported
            prfOutput = prf.first.map { PlatformPRFOutput(first: $0.bytes, second: prf.second?.bytes) }
        }
    }

    @MainActor
    init(copying registration: ASAuthorizationSecurityKeyPublicKeyCredentialRegistration) {
        self.init(
            provider: .securityKey, credentialID: registration.credentialID,
            rawClientDataJSON: registration.rawClientDataJSON,
            rawAttestationObject: registration.rawAttestationObject, attachment: .crossPlatform
        )
        if #available(iOS 17.5, macOS 14.5, *) {
            transports = registration.transports.map(\.rawValue)
        }
    }
}

extension PlatformAssertionResult {
    @MainActor
    init(copying assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) {
        // `Data!` in the SDK (the header has no nullability): a missing value becomes empty, which the mapping refuses.
        self.init(
            provider: .platform, credentialID: assertion.credentialID, rawClientDataJSON: assertion.rawClientDataJSON,
            rawAuthenticatorData: assertion.rawAuthenticatorData ?? Data(), signature: assertion.signature ?? Data(),
            userID: assertion.userID
        )
        if #available(iOS 16.6, macOS 13.5, *) {
            attachment = PlatformAttachment(rawValue: assertion.attachment.rawValue)
        }
        if #available(iOS 17.0, macOS 14.0, *), let largeBlob = assertion.largeBlob {
            switch largeBlob.result {
            case .read(let data): largeBlobData = data
            case .write(let success): largeBlobWritten = success
            }
        }
        if #available(iOS 18.0, macOS 15.0, *), let prf = assertion.prf {
            prfOutput = PlatformPRFOutput(first: prf.first.bytes, second: prf.second?.bytes)
        }
    }

    @MainActor
    init(copying assertion: ASAuthorizationSecurityKeyPublicKeyCredentialAssertion) {
        self.init(
            provider: .securityKey, credentialID: assertion.credentialID,
            rawClientDataJSON: assertion.rawClientDataJSON,
            rawAuthenticatorData: assertion.rawAuthenticatorData ?? Data(), signature: assertion.signature ?? Data(),
            userID: assertion.userID, attachment: .crossPlatform
        )
        if #available(iOS 17.4, macOS 14.4, *) {
            appIDUsed = assertion.appID
        }
    }
}

@available(iOS 26.0, macOS 26.0, *)
extension AccountCreationResult {
    @MainActor
    init(copying created: ASAuthorizationAccountCreationPlatformPublicKeyCredential) {
        let contact: Contact =
            switch created.contactIdentifier {
            case .email(let email): .email(email.value)
            case .phoneNumber(let phone): .phoneNumber(phone.value)
            }
        self.init(
            contact: contact, givenName: created.name?.givenName, familyName: created.name?.familyName,
            registration: PlatformRegistrationResult(copying: created.credentialRegistration)
        )
    }
}

extension AppleIDCredential {
    @MainActor
    init(copying credential: ASAuthorizationAppleIDCredential) {
        self.init(
            user: credential.user, state: credential.state, identityToken: Self.text(credential.identityToken),
            authorizationCode: Self.text(credential.authorizationCode), email: credential.email,
            givenName: credential.fullName?.givenName, familyName: credential.fullName?.familyName,
            authorizedScopes: credential.authorizedScopes.compactMap {
                SignInWithAppleRequest.Scope(rawValue: $0.rawValue)
            },
            realUserStatus: RealUserStatus(rawValue: credential.realUserStatus.rawValue) ?? .unknown
        )
    }
}

extension SymmetricKey {
    /// The key's bytes (PRF outputs are returned as keys).
    fileprivate var bytes: Data { withUnsafeBytes { Data($0) } }
}
#endif
