import Crypto
import Foundation

/// What the server stored about a credential, as an authentication needs it.
public struct CredentialRecord: Sendable, Hashable {
    /// The credential ID.
    public var id: [UInt8]
    /// The COSE_Key bytes from registration.
    public var publicKey: [UInt8]
    /// The signature counter stored after the last ceremony.
    public var signCount: UInt32
    /// The user handle of the account, checked against the assertion's `userHandle` when both are present.
    public var userHandle: [UInt8]?
    /// The BE flag from registration; when known, a change fails the ceremony.
    public var backupEligible: Bool?

    /// A record as stored.
    public init(
        id: [UInt8], publicKey: [UInt8], signCount: UInt32, userHandle: [UInt8]? = nil, backupEligible: Bool? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.userHandle = userHandle
        self.backupEligible = backupEligible
    }
}

extension RelyingParty {
    /// Makes the options for `navigator.credentials.get()`.
    ///
    /// - Parameters:
    ///   - challenge: the challenge to use; a fresh 32-byte random one when nil. Store it for `finishAuthentication`.
    ///   - allowCredentials: the user's credentials; empty for a username-less (discoverable) sign-in.
    ///   - userVerification: the requirement sent; ``userVerification`` when nil.
    ///   - hints: the client hints sent (`security-key`, `client-device`, `hybrid`), if any.
    ///   - extensions: the extension inputs sent; `appid` is added when ``appID`` is set.
    public func beginAuthentication(
        challenge: [UInt8]? = nil,
        allowCredentials: [PublicKeyCredentialDescriptor] = [],
        userVerification: UserVerificationRequirement? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: [String: JSONValue]? = nil
    ) -> PublicKeyCredentialRequestOptions {
        var extensions = extensions
        if let appID, extensions?["appid"] == nil {
            extensions = (extensions ?? [:]).merging(["appid": .string(appID)]) { given, _ in given }
        }
        return PublicKeyCredentialRequestOptions(
            challenge: challenge ?? Self.generateChallenge(),
            timeout: timeoutMilliseconds,
            rpId: id,
            allowCredentials: allowCredentials.isEmpty ? nil : allowCredentials,
            userVerification: userVerification ?? self.userVerification,
            hints: hints,
            extensions: extensions
        )
    }

    /// SHA-256 of ``appID`` when it is set and the client's `appid` extension output is true: the rpIdHash the
    /// authenticator used for a credential registered with the U2F API.
    func appIDHash(usedBy credential: AuthenticationCredential) -> [UInt8]? {
        guard let appID, credential.clientExtensionResults["appid"]?.boolValue == true else { return nil }
        return Array(SHA256.hash(data: Array(appID.utf8)))
    }

    /// Verifies an authentication response (WebAuthn §7.2) against the stored credential.
    ///
    /// Package-only: it does not check that the credential belongs to the account signing in (java-webauthn-server's
    /// YSA-2026-02 is that class of bug). The public way is ``finishAuthentication(_:pending:credential:)``, which
    /// does; this is for the conformance profile and the CLI's `verify`, which keep the pieces themselves.
    ///
    /// - Parameters:
    ///   - credential: the assertion JSON the client sent, parsed (`AuthenticationCredential.parse(_:)`).
    ///   - expectedChallenge: the challenge stored when the ceremony began.
    ///   - record: the stored credential whose ID the client named.
    ///   - allowedCredentialIDs: the `allowCredentials` IDs sent in the options, if any.
    ///   - requireUserVerification: overrides the policy from ``userVerification`` (`required` means true).
    /// - Throws: ``WebAuthnError``; `signCountRegression` when the counter did not increase (see ``signCountPolicy``).
    package func finishAuthentication(
        _ credential: AuthenticationCredential,
        expectedChallenge: [UInt8],
        credential record: CredentialRecord,
        allowedCredentialIDs: [[UInt8]]? = nil,
        requireUserVerification: Bool? = nil
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        guard credential.type == .publicKey else {
            throw WebAuthnError(
                .credentialTypeInvalid, "credential type is \"\(credential.type.rawValue)\", expected \"public-key\"")
        }
        let rawID = credential.rawId.bytes
        if let allowed = allowedCredentialIDs, !allowed.isEmpty, !allowed.contains(rawID) {
            throw WebAuthnError(.credentialNotAllowed, "the credential was not in allowCredentials")
        }
        guard constantTimeEquals(rawID, record.id) else {
            throw WebAuthnError(.credentialIdMismatch, "the assertion's credential ID is not the stored credential's")
        }
        if let handle = credential.response.userHandle?.bytes, let expected = record.userHandle,
            !constantTimeEquals(handle, expected)
        {
            throw WebAuthnError(.userHandleMismatch, "the assertion's userHandle is not the credential owner's")
        }

        let clientDataBytes = credential.response.clientDataJSON.bytes
        let clientData = try CollectedClientData(bytes: clientDataBytes)
        let challengeEncoding = try ClientDataCheck(
            relyingParty: self, expectedType: authenticationType, expectedChallenge: expectedChallenge
        ).verify(clientData)

        let authData = try AuthenticatorData(bytes: credential.response.authenticatorData.bytes)
        try AuthenticatorDataCheck(
            relyingParty: self, requireUserVerification: requireUserVerification ?? (userVerification == .required),
            appIDHash: appIDHash(usedBy: credential)
        ).verify(authData)

        let key: COSEKey
        do {
            key = try COSEKey(bytes: record.publicKey)
        } catch {
            throw WebAuthnError(
                .publicKeyMalformed, "stored credential public key is not a valid COSE key: \(error.message)")
        }
        let verifier = try SignatureVerifier(coseKey: key)
        var signedData = authData.rawValue
        signedData.append(contentsOf: SHA256.hash(data: clientDataBytes))
        guard verifier.isValidSignature(credential.response.signature.bytes, for: signedData) else {
            throw WebAuthnError(.badSignature, "the assertion signature does not verify with the stored public key")
        }
        // After the signature: before it, anyone holding only the credential ID (public, in allowCredentials) could
        // learn the stored flag from which error came back.
        let eligibilityChanged = record.backupEligible.map { $0 != authData.flags.backupEligible } ?? false
        if eligibilityChanged, backupEligibilityChangePolicy == .reject {
            throw WebAuthnError(
                .backupStateInvalid,
                "the BE flag changed since registration (was \(!authData.flags.backupEligible))")
        }

        let newCount = authData.signCount
        let regressed = (newCount != 0 || record.signCount != 0) && newCount <= record.signCount
        if regressed, signCountPolicy == .reject {
            throw WebAuthnError(
                .signCountRegression,
                "signCount \(newCount) is not greater than the stored counter \(record.signCount); the authenticator may be cloned"
            )
        }

        return VerifiedAuthentication(
            credentialID: rawID,
            newSignCount: newCount,
            signCountRegressed: regressed,
            userVerified: authData.flags.userVerified,
            backupEligible: authData.flags.backupEligible,
            backupEligibilityChanged: eligibilityChanged,
            backedUp: authData.flags.backedUp,
            userHandle: credential.response.userHandle?.bytes,
            authenticatorAttachment: credential.authenticatorAttachment,
            clientExtensionResults: credential.clientExtensionResults,
            challengeEncoding: challengeEncoding
        )
    }

    /// Verifies an authentication response given as the JSON text the client sent (package-only, as the one above).
    package func finishAuthentication(
        json: some DataProtocol,
        expectedChallenge: [UInt8],
        credential record: CredentialRecord,
        allowedCredentialIDs: [[UInt8]]? = nil,
        requireUserVerification: Bool? = nil
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        try finishAuthentication(
            AuthenticationCredential.parse(json), expectedChallenge: expectedChallenge, credential: record,
            allowedCredentialIDs: allowedCredentialIDs, requireUserVerification: requireUserVerification
        )
    }
}

/// A verified authentication: what changed, for the server to store, and what the authenticator reported.
public struct VerifiedAuthentication: Sendable, Hashable {
    /// The credential that signed in.
    public let credentialID: [UInt8]
    /// The counter to store.
    public let newSignCount: UInt32
    /// The counter did not increase (only when ``SignCountPolicy/report`` let the ceremony succeed).
    public let signCountRegressed: Bool
    /// UV: the authenticator verified the user.
    public let userVerified: Bool
    /// BE: the credential may be backed up (synced).
    public let backupEligible: Bool
    /// BE differs from the stored flag (only when ``BackupEligibilityChangePolicy/acceptAndRecord`` let the ceremony
    /// succeed): store ``backupEligible``.
    public let backupEligibilityChanged: Bool
    /// BS: the credential is backed up now; store it.
    public let backedUp: Bool
    /// The user handle the authenticator returned, for discoverable credentials.
    public let userHandle: [UInt8]?
    /// How the authenticator was attached, when the client says.
    public let authenticatorAttachment: AuthenticatorAttachment?
    /// The client extension outputs as sent.
    public let clientExtensionResults: [String: JSONValue]
    /// Which form of the challenge the client data carried.
    public let challengeEncoding: ChallengeEncoding
}
