import CBOR
import Crypto
import Foundation
import X509

extension RelyingParty {
    /// Makes the options for `navigator.credentials.create()` (or AuthenticationServices' registration request).
    ///
    /// - Parameters:
    ///   - user: the account the credential will belong to; `user.id` is an opaque handle of at most 64 bytes.
    ///   - challenge: the challenge to use; a fresh 32-byte random one when nil. The pending API
    ///     (`beginRegistration(for:…)`) keeps it for you.
    ///   - excludeCredentials: the user's existing credentials, so an authenticator is not registered twice.
    ///   - authenticatorAttachment: `platform` or `cross-platform` to ask for one kind of authenticator; any when nil.
    ///   - residentKey: whether to ask for a discoverable credential; ``residentKey`` when nil.
    ///   - userVerification: the requirement sent; ``userVerification`` when nil.
    ///   - attestation: the attestation conveyance asked for; ``attestation`` when nil.
    ///   - hints: the client hints sent (`security-key`, `client-device`, `hybrid`), if any.
    ///   - extensions: the extension inputs sent; `credProps` is always asked for.
    public func beginRegistration(
        user: UserEntity,
        challenge: [UInt8]? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptor] = [],
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        residentKey: ResidentKeyRequirement? = nil,
        userVerification: UserVerificationRequirement? = nil,
        attestation: AttestationConveyancePreference? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: [String: JSONValue]? = nil
    ) -> PublicKeyCredentialCreationOptions {
        var extensions = extensions ?? [:]
        if extensions["credProps"] == nil { extensions["credProps"] = .bool(true) }
        return PublicKeyCredentialCreationOptions(
            rp: RelyingPartyEntity(id: id, name: name),
            user: user,
            challenge: challenge ?? Self.generateChallenge(),
            pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0) },
            timeout: timeoutMilliseconds,
            excludeCredentials: excludeCredentials.isEmpty ? nil : excludeCredentials,
            authenticatorSelection: AuthenticatorSelectionCriteria(
                authenticatorAttachment: authenticatorAttachment,
                residentKey: residentKey ?? self.residentKey,
                userVerification: userVerification ?? self.userVerification
            ),
            hints: hints,
            attestation: attestation ?? self.attestation,
            extensions: extensions
        )
    }

    /// Verifies a registration response (WebAuthn §7.1) and returns what the server must store.
    ///
    /// Package-only: the public way is ``finishRegistration(_:pending:at:)``, which takes the requirements from what
    /// the options promised.
    ///
    /// - Parameters:
    ///   - credential: the credential JSON the client sent, parsed (`RegistrationCredential.parse(_:)`).
    ///   - expectedChallenge: the challenge stored when the ceremony began.
    ///   - requireUserVerification: overrides the policy from ``userVerification`` (`required` means true).
    ///   - requireUserPresence: overrides ``RelyingParty/requireUserPresence`` for this ceremony. Pass false only for
    ///     a registration begun for conditional mediation (`mediation: "conditional"` create, an automatic passkey
    ///     upgrade): WebAuthn Level 3 (§7.1 step 14) has the RP skip the UP check then, since the browser creates the
    ///     passkey without a gesture. Every other registration keeps requiring UP.
    ///   - time: the moment at which certificates are judged; now by default.
    /// - Throws: ``WebAuthnError`` with a code that says which check failed.
    package func finishRegistration(
        _ credential: RegistrationCredential,
        expectedChallenge: [UInt8],
        requireUserVerification: Bool? = nil,
        requireUserPresence: Bool? = nil,
        at time: Date = Date()
    ) async throws(WebAuthnError) -> VerifiedRegistration {
        guard credential.type == .publicKey else {
            throw WebAuthnError(
                .credentialTypeInvalid, "credential type is \"\(credential.type.rawValue)\", expected \"public-key\"")
        }
        let clientDataBytes = credential.response.clientDataJSON.bytes
        let clientData = try CollectedClientData(bytes: clientDataBytes)
        let challengeEncoding = try ClientDataCheck(
            relyingParty: self, expectedType: registrationType, expectedChallenge: expectedChallenge
        ).verify(clientData)
        let clientDataHash = Array(SHA256.hash(data: clientDataBytes))

        let attestationObject = try AttestationObject(bytes: credential.response.attestationObject.bytes)
        let authData = attestationObject.authenticatorData
        try AuthenticatorDataCheck(
            relyingParty: self, requireUserVerification: requireUserVerification ?? (userVerification == .required),
            requireUserPresence: requireUserPresence ?? self.requireUserPresence
        ).verify(authData)

        guard let attested = authData.attestedCredentialData else {
            throw WebAuthnError(
                .attestedCredentialDataMissing, "authenticator data has no attested credential data (AT flag not set)")
        }
        guard constantTimeEquals(attested.credentialID, credential.rawId.bytes) else {
            throw WebAuthnError(
                .credentialIdMismatch, "credential id/rawId does not equal the attested credential ID in authData")
        }
        let algorithm = attested.publicKey.algorithm
        guard algorithms.contains(algorithm) else {
            let allowed = algorithms.map { String($0.rawValue) }.joined(separator: ", ")
            throw WebAuthnError(
                .algorithmNotAllowed,
                "credential public key algorithm (\(algorithm.rawValue)) is not in the allowed pubKeyCredParams ([\(allowed)])"
            )
        }
        // Importing the key rejects keys that are not on their curve and the like.
        let credentialKeyVerifier =
            COSEAlgorithm.verifiable.contains(algorithm) ? try SignatureVerifier(coseKey: attested.publicKey) : nil

        guard let formatVerifier = attestationFormats.verifier(for: attestationObject.format) else {
            throw WebAuthnError(
                .unsupportedAttestationFormat,
                "unsupported attestation statement format \"\(attestationObject.format)\"")
        }
        let metadata = await attestationTrust.metadataEntry(
            for: attested.aaguid, statement: attestationObject.statement)
        let context = AttestationContext(
            format: attestationObject.format, statement: attestationObject.statement,
            rawStatement: attestationObject.rawStatement, authenticatorData: authData,
            clientDataHash: clientDataHash, credential: attested, verificationTime: time,
            trust: attestationTrust, metadata: metadata, options: attestationOptions,
            credentialKeyVerifier: credentialKeyVerifier
        )
        let attestation = try await formatVerifier.verify(context)
        try attestationTrust.policy.check(attestation, metadata: metadata, at: time)
        try authenticatorPolicy.check(
            aaguid: attested.aaguid, backupEligible: authData.flags.backupEligible,
            name: AuthenticatorNames.name(for: attested.aaguid, metadata: metadata))

        return VerifiedRegistration(
            credentialID: attested.credentialID,
            publicKey: attested.publicKeyBytes,
            algorithm: algorithm,
            signCount: authData.signCount,
            aaguid: attested.aaguid,
            attestation: attestation,
            metadata: metadata,
            userVerified: authData.flags.userVerified,
            backupEligible: authData.flags.backupEligible,
            backedUp: authData.flags.backedUp,
            transports: credential.response.transports ?? [],
            authenticatorAttachment: credential.authenticatorAttachment,
            clientExtensionResults: credential.clientExtensionResults,
            authenticatorExtensions: authData.extensions,
            challengeEncoding: challengeEncoding
        )
    }
}

/// A verified registration: everything a server stores about the new credential, and how it was attested.
public struct VerifiedRegistration: Sendable {
    /// The new credential's ID.
    public let credentialID: [UInt8]
    /// The credential public key as a COSE_Key, exactly as the authenticator encoded it.
    public let publicKey: [UInt8]
    /// The credential key's algorithm.
    public let algorithm: COSEAlgorithm
    /// The initial signature counter.
    public let signCount: UInt32
    /// The authenticator model's AAGUID.
    public let aaguid: AAGUID
    /// The verified attestation: format, type, trust path and trust.
    public let attestation: VerifiedAttestation
    /// The authenticator's FIDO metadata entry, when ``AttestationTrust/metadata`` has one for it
    /// (its ``MetadataEntry/description`` names the authenticator).
    public let metadata: MetadataEntry?
    /// UV: the authenticator verified the user.
    public let userVerified: Bool
    /// BE: the credential may be backed up (synced); store it.
    public let backupEligible: Bool
    /// BS: the credential is backed up now.
    public let backedUp: Bool
    /// The transports the client reported; store them for `allowCredentials`.
    public let transports: [AuthenticatorTransport]
    /// How the authenticator was attached, when the client says.
    public let authenticatorAttachment: AuthenticatorAttachment?
    /// The client extension outputs as sent (prf, largeBlob and others pass through).
    public let clientExtensionResults: [String: JSONValue]
    /// The authenticator extension outputs in authenticator data, if any.
    public let authenticatorExtensions: CBORMap?
    /// Which form of the challenge the client data carried.
    public let challengeEncoding: ChallengeEncoding

    /// The attestation statement format (`packed`, `tpm`, `none`, …).
    public var attestationFormat: String { attestation.format }
    /// The attestation type.
    public var attestationType: AttestationType { attestation.type }
    /// The attestation certificates as sent, leaf first.
    public var trustPath: [Certificate] { attestation.trustPath }
    /// `single-device` or `multi-device` (a synced passkey).
    public var deviceType: String { backupEligible ? "multi-device" : "single-device" }

    /// The credProps extension's `rk`: whether the credential is discoverable, when the client said.
    public var isDiscoverable: Bool? { clientExtensionResults["credProps"]?["rk"]?.boolValue }
}
