import Foundation
import WebAuthn

/// The values an `ASAuthorizationPlatformPublicKeyCredentialProvider` registration request is built from,
/// read from the server's creation options.
public struct PlatformRegistrationRequest: Sendable, Hashable {
    public var relyingPartyIdentifier: String
    public var challenge: Data
    public var userName: String
    public var userID: Data
    /// `required`, `preferred` or `discouraged` (the raw values of `ASAuthorizationPublicKeyCredentialUserVerificationPreference`).
    public var userVerificationPreference: String
    /// `none`, `indirect`, `direct` or `enterprise` (`ASAuthorizationPublicKeyCredentialAttestationKind`).
    public var attestationPreference: String
    /// Credential IDs the new passkey must not duplicate: the security key request's `excludedCredentials`,
    /// and the platform request's from iOS 17.4 / macOS 14.4.
    public var excludedCredentialIDs: [Data]

    /// The request for `options`; the RP ID is the options' or else `defaultRelyingPartyIdentifier`.
    /// - Throws: ``AuthenticatorError/Code/invalidOptions`` without an RP ID or with an empty challenge.
    public init(
        options: PublicKeyCredentialCreationOptions, defaultRelyingPartyIdentifier: String? = nil
    ) throws(AuthenticatorError) {
        guard let rpID = options.rp.id ?? defaultRelyingPartyIdentifier, !rpID.isEmpty else {
            throw AuthenticatorError(.invalidOptions, "the creation options name no RP ID")
        }
        guard !options.challenge.bytes.isEmpty else { throw AuthenticatorError(.invalidOptions, "the challenge is empty") }
        relyingPartyIdentifier = rpID
        challenge = Data(options.challenge.bytes)
        userName = options.user.name
        userID = Data(options.user.id.bytes)
        userVerificationPreference = (options.authenticatorSelection?.userVerification ?? .preferred).rawValue
        attestationPreference = (options.attestation ?? .none).rawValue
        excludedCredentialIDs = (options.excludeCredentials ?? []).map { Data($0.id.bytes) }
    }
}

/// The values an assertion request is built from, read from the server's request options.
public struct PlatformAssertionRequest: Sendable, Hashable {
    public var relyingPartyIdentifier: String
    public var challenge: Data
    /// Empty for a username-less (discoverable) request.
    public var allowedCredentialIDs: [Data]
    public var userVerificationPreference: String

    /// The request for `options`; the RP ID is the options' or else `defaultRelyingPartyIdentifier`.
    /// - Throws: ``AuthenticatorError/Code/invalidOptions`` without an RP ID or with an empty challenge.
    public init(
        options: PublicKeyCredentialRequestOptions, defaultRelyingPartyIdentifier: String? = nil
    ) throws(AuthenticatorError) {
        guard let rpID = options.rpId ?? defaultRelyingPartyIdentifier, !rpID.isEmpty else {
            throw AuthenticatorError(.invalidOptions, "the request options name no RP ID")
        }
        guard !options.challenge.bytes.isEmpty else { throw AuthenticatorError(.invalidOptions, "the challenge is empty") }
        relyingPartyIdentifier = rpID
        challenge = Data(options.challenge.bytes)
        allowedCredentialIDs = (options.allowCredentials ?? []).map { Data($0.id.bytes) }
        userVerificationPreference = (options.userVerification ?? .preferred).rawValue
    }
}
