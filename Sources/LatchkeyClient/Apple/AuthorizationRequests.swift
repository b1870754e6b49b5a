#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

// Builds the AuthenticationServices request objects from the platform-independent request values
// (PlatformRequests.swift, PlatformExtensionInputs.swift), property by property. What goes into each value, and which
// providers are asked, is decided there and tested on Linux; this file only copies values across.

extension PlatformRegistrationRequest {
    /// One request per provider in ``providers``.
    /// - Throws: ``AuthenticatorError/Code/unsupported`` for a conditional request before iOS 18 / macOS 15.
    @MainActor
    func authorizationRequests() throws(AuthenticatorError) -> [ASAuthorizationRequest] {
        try providers.map { provider throws(AuthenticatorError) -> ASAuthorizationRequest in
            switch provider {
            case .platform: try platformRequest()
            case .securityKey: securityKeyRequest()
            }
        }
    }

    @MainActor
    private func platformRequest() throws(AuthenticatorError)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    {
        let request = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyIdentifier)
            .createCredentialRegistrationRequest(challenge: challenge, name: userName, userID: userID)
        request.displayName = userDisplayName
        request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: userVerificationPreference)
        request.attestationPreference = ASAuthorizationPublicKeyCredentialAttestationKind(
            rawValue: attestationPreference)
        if #available(iOS 17.4, macOS 14.4, *) {
            request.excludedCredentials = excludedCredentials.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0.id)
            }
        }
        if let largeBlob, #available(iOS 17.0, macOS 14.0, *) {
            request.largeBlob = largeBlob == .required ? .supportRequired : .supportPreferred
        }
        if let prf, #available(iOS 18.0, macOS 15.0, *) {
            switch prf {
            case .checkForSupport: request.prf = .checkForSupport
            case .evaluate(let values): request.prf = .inputValues(values.inputValues)
            }
        }
        if style == .conditional {
            guard #available(iOS 18.0, macOS 15.0, *) else {
                throw AuthenticatorError(.unsupported, "conditional passkey creation needs iOS 18 or macOS 15")
            }
            request.requestStyle = .conditional
        }
        return request
    }

    @MainActor
    private func securityKeyRequest() -> ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest {
        let request = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(
            relyingPartyIdentifier: relyingPartyIdentifier
        )
        .createCredentialRegistrationRequest(
            challenge: challenge, displayName: userDisplayName, name: userName, userID: userID)
        request.credentialParameters = algorithms.map {
            ASAuthorizationPublicKeyCredentialParameters(algorithm: ASCOSEAlgorithmIdentifier(rawValue: $0))
        }
        request.excludedCredentials = excludedCredentials.map(\.securityKeyDescriptor)
        request.residentKeyPreference = ASAuthorizationPublicKeyCredentialResidentKeyPreference(
            rawValue: residentKeyPreference)
        request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: userVerificationPreference)
        request.attestationPreference = ASAuthorizationPublicKeyCredentialAttestationKind(
            rawValue: attestationPreference)
        return request
    }
}

extension PlatformAssertionRequest {
    /// One request per provider in ``providers``; only the platform one for AutoFill, which takes no security keys.
    @MainActor
    func authorizationRequests(for presentation: AuthorizationPresentation) -> [ASAuthorizationRequest] {
        providers.compactMap { provider -> ASAuthorizationRequest? in
            switch provider {
            case .platform: platformRequest()
            case .securityKey: presentation == .autoFill ? nil : securityKeyRequest()
            }
        }
    }

    @MainActor
    func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
        let request = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyIdentifier)
            .createCredentialAssertionRequest(challenge: challenge)
        request.allowedCredentials = allowedCredentials.map {
            ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0.id)
        }
        request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: userVerificationPreference)
        if let largeBlob, #available(iOS 17.0, macOS 14.0, *) {
            switch largeBlob {
            case .read: request.largeBlob = .read
            case .write(let blob): request.largeBlob = .write(blob)
            }
        }
        if let prf, #available(iOS 18.0, macOS 15.0, *) {
            let perCredential = prf.valuesByCredential.mapValues(\.inputValues)
            if let values = prf.values {
                request.prf = .inputValues(
                    values.inputValues, perCredentialInputValues: perCredential.isEmpty ? nil : perCredential)
            } else {
                request.prf = .perCredentialInputValues(perCredential)
            }
        }
        return request
    }

    @MainActor
    private func securityKeyRequest() -> ASAuthorizationSecurityKeyPublicKeyCredentialAssertionRequest {
        let request = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(
            relyingPartyIdentifier: relyingPartyIdentifier
        )
        .createCredentialAssertionRequest(challenge: challenge)
        request.allowedCredentials = allowedCredentials.map(\.securityKeyDescriptor)
        request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: userVerificationPreference)
        if let appID, #available(iOS 17.4, macOS 14.4, *) {
            request.appID = appID
        }
        return request
    }
}

@available(iOS 26.0, macOS 26.0, *)
extension AccountCreationRequest {
    /// The `ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest`.
    @MainActor
    func authorizationRequest() -> ASAuthorizationAccountCreationPlatformPublicKeyCredentialRequest {
        ASAuthorizationAccountCreationProvider().createPlatformPublicKeyCredentialRegistrationRequest(
            acceptedContactIdentifiers: acceptedContacts.map { kind -> ASContactIdentifierRequest in
                switch kind {
                case .email: .email
                case .phoneNumber: .phoneNumber
                }
            },
            shouldRequestName: requestsName, relyingPartyIdentifier: relyingPartyIdentifier, challenge: challenge,
            userID: userID
        )
    }
}

extension PlatformCredentialDescriptor {
    /// The security key descriptor, with the transports the server knows or else every transport.
    @MainActor
    var securityKeyDescriptor: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor {
        let known = securityKeyTransports.map(
            ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.init(rawValue:))
        return ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
            credentialID: id,
            transports: known.isEmpty
                ? ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported : known
        )
    }
}

@available(iOS 18.0, macOS 15.0, *)
extension PlatformExtensionInputs.PRFValues {
    var inputValues: ASAuthorizationPublicKeyCredentialPRFAssertionInput.InputValues {
        ASAuthorizationPublicKeyCredentialPRFAssertionInput.InputValues(saltInput1: first, saltInput2: second)
    }
}
#endif
