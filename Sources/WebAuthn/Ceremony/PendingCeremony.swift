import Foundation

/// How the client was asked to run a ceremony: the `mediation` member of `navigator.credentials.create()` / `get()`
/// (Credential Management Level 1), which AuthenticationServices expresses with its request styles.
public struct CredentialMediationRequirement: OpenStringEnum {
    /// The mediation's name, as in `navigator.credentials.get({mediation})`.
    public let rawValue: String
    /// A mediation by name; names this version does not know are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No user interaction at all (never used for WebAuthn).
    public static let silent: Self = "silent"
    /// The client decides whether to ask the user.
    public static let optional: Self = "optional"
    /// Passkey AutoFill for a sign-in; an automatic passkey upgrade for a registration (its result may lack UP).
    public static let conditional: Self = "conditional"
    /// The user is always asked.
    public static let required: Self = "required"
}

/// What a relying party keeps between the options of a sign-in and its verification, made by
/// ``RelyingParty/beginAuthentication(for:userVerification:mediation:hints:extensions:)`` and given back to
/// ``RelyingParty/finishAuthentication(_:pending:credential:)``.
///
/// It is `Codable` (bytes as base64url strings) so a server can keep it wherever it keeps ceremonies: a database row,
/// a signed cookie. It holds no secret, but it must not be changeable by the client, and it must be used once.
public struct PendingAuthentication: Codable, Hashable, Sendable {
    /// The challenge sent in the options.
    public var challenge: Base64URLBytes
    /// The `allowCredentials` IDs sent; empty for a username-less sign-in.
    public var allowedCredentialIDs: [Base64URLBytes]
    /// The user-verification requirement the options carried; `required` makes UV mandatory.
    public var userVerification: UserVerificationRequirement
    /// The user handle of the account signing in; nil for a username-less (discoverable credential) sign-in, where
    /// the assertion names the account.
    public var userHandle: Base64URLBytes?
    /// How the client was asked (nil: not said).
    public var mediation: CredentialMediationRequirement?

    /// A pending sign-in; ``RelyingParty/beginAuthentication(for:userVerification:mediation:hints:extensions:)`` makes it.
    ///
    /// - Parameters:
    ///   - challenge: the challenge sent in the options.
    ///   - allowedCredentialIDs: the `allowCredentials` IDs sent (empty for a username-less sign-in).
    ///   - userVerification: the requirement the options carried.
    ///   - userHandle: the account's user handle, or nil for a username-less sign-in.
    ///   - mediation: how the client was asked.
    public init(
        challenge: [UInt8], allowedCredentialIDs: [[UInt8]], userVerification: UserVerificationRequirement,
        userHandle: [UInt8]?, mediation: CredentialMediationRequirement? = nil
    ) {
        self.challenge = Base64URLBytes(challenge)
        self.allowedCredentialIDs = allowedCredentialIDs.map(Base64URLBytes.init)
        self.userVerification = userVerification
        self.userHandle = userHandle.map(Base64URLBytes.init)
        self.mediation = mediation
    }
}

/// What a relying party keeps between the options of a registration and its verification, made by
/// ``RelyingParty/beginRegistration(for:excludeCredentials:authenticatorAttachment:residentKey:userVerification:attestation:mediation:hints:extensions:)``
/// and given back to ``RelyingParty/finishRegistration(_:pending:at:)``. `Codable`, like ``PendingAuthentication``.
public struct PendingRegistration: Codable, Hashable, Sendable {
    /// The challenge sent in the options.
    public var challenge: Base64URLBytes
    /// The account the credential is being made for.
    public var user: UserEntity
    /// The user-verification requirement the options carried; `required` makes UV mandatory.
    public var userVerification: UserVerificationRequirement
    /// How the client was asked; `conditional` (an automatic passkey upgrade) accepts a result without UP.
    public var mediation: CredentialMediationRequirement?

    /// A pending registration; ``RelyingParty/beginRegistration(for:excludeCredentials:authenticatorAttachment:residentKey:userVerification:attestation:mediation:hints:extensions:)``
    /// makes it.
    ///
    /// - Parameters:
    ///   - challenge: the challenge sent in the options.
    ///   - user: the account the credential is for.
    ///   - userVerification: the requirement the options carried.
    ///   - mediation: how the client was asked (`conditional` for an automatic passkey upgrade).
    public init(
        challenge: [UInt8], user: UserEntity, userVerification: UserVerificationRequirement,
        mediation: CredentialMediationRequirement? = nil
    ) {
        self.challenge = Base64URLBytes(challenge)
        self.user = user
        self.userVerification = userVerification
        self.mediation = mediation
    }
}

/// Who a sign-in is for.
public enum AuthenticatingUser: Sendable, Hashable {
    /// Username-less: any discoverable credential for this RP may answer, and its assertion names the account.
    case discoverable
    /// A known account: its user handle and its credentials (sent as `allowCredentials`).
    case identified(userHandle: [UInt8], credentials: [PublicKeyCredentialDescriptor])
}

extension RelyingParty {
    /// The requirement a ceremony enforces: what the client asked, but never looser than a `required` policy.
    func effectiveUserVerification(_ requested: UserVerificationRequirement?) -> UserVerificationRequirement {
        userVerification == .required ? .required : (requested ?? userVerification)
    }

    /// Begins a sign-in: the options for `navigator.credentials.get()` and the pending value to keep until the
    /// response comes back.
    ///
    /// - Parameters:
    ///   - user: the account signing in, or ``AuthenticatingUser/discoverable`` for a username-less sign-in.
    ///   - userVerification: what the client asked for; a `required` ``RelyingParty/userVerification`` policy wins.
    ///   - mediation: how the client will ask (kept for the record; `conditional` is Passkey AutoFill).
    ///   - hints: which kind of authenticator the client should offer first (`hints`), if any.
    ///   - extensions: the client extension inputs to send.
    /// - Returns: the options to send and the pending value to keep until the response comes back.
    public func beginAuthentication(
        for user: AuthenticatingUser,
        userVerification: UserVerificationRequirement? = nil,
        mediation: CredentialMediationRequirement? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: [String: JSONValue]? = nil
    ) -> (options: PublicKeyCredentialRequestOptions, pending: PendingAuthentication) {
        let requirement = effectiveUserVerification(userVerification)
        let (handle, credentials): ([UInt8]?, [PublicKeyCredentialDescriptor]) =
            switch user {
            case .discoverable: (nil, [])
            case .identified(let userHandle, let credentials): (userHandle, credentials)
            }
        let options = beginAuthentication(
            allowCredentials: credentials, userVerification: requirement, hints: hints, extensions: extensions
        )
        let pending = PendingAuthentication(
            challenge: options.challenge.bytes, allowedCredentialIDs: credentials.map(\.id.bytes),
            userVerification: requirement, userHandle: handle, mediation: mediation
        )
        return (options, pending)
    }

    /// Verifies a sign-in against what its options promised (WebAuthn §7.2) and the stored credential the assertion
    /// names, including who owns it:
    ///
    /// - a sign-in begun for an account accepts only that account's credentials (`record.userHandle` must be the
    ///   pending user handle; ``WebAuthnError/Code/credentialNotAllowed`` otherwise);
    /// - a username-less sign-in needs the assertion's `userHandle`, and it must be the record's
    ///   (``WebAuthnError/Code/userHandleMismatch``);
    /// - `allowCredentials`, the challenge and the user-verification requirement come from `pending`.
    ///
    /// - Parameters:
    ///   - credential: the assertion the client sent, parsed (`AuthenticationCredential.parse(_:)`).
    ///   - pending: the value ``beginAuthentication(for:userVerification:mediation:hints:extensions:)`` returned.
    ///   - record: the stored credential whose ID the assertion names, with the owner's user handle.
    /// - Returns: what changed, for the server to store.
    /// - Throws: ``WebAuthnError`` with the code of the check that failed.
    public func finishAuthentication(
        _ credential: AuthenticationCredential, pending: PendingAuthentication, credential record: CredentialRecord
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        if let expected = pending.userHandle {
            guard let owner = record.userHandle, constantTimeEquals(owner, expected.bytes) else {
                throw WebAuthnError(
                    .credentialNotAllowed, "the passkey belongs to another account than the one signing in")
            }
        } else {
            guard credential.response.userHandle != nil else {
                throw WebAuthnError(.userHandleMismatch, "a username-less sign-in needs the assertion's userHandle")
            }
            guard record.userHandle != nil else {
                throw WebAuthnError(
                    .userHandleMismatch,
                    "a username-less sign-in needs the credential owner's user handle in the record")
            }
        }
        return try finishAuthentication(
            credential, expectedChallenge: pending.challenge.bytes, credential: record,
            allowedCredentialIDs: pending.allowedCredentialIDs.map(\.bytes),
            requireUserVerification: pending.userVerification == .required
        )
    }

    /// Begins a registration: the options for `navigator.credentials.create()` and the pending value to keep until
    /// the response comes back.
    ///
    /// - Parameters:
    ///   - user: the account the credential will belong to.
    ///   - userVerification: what the client asked for; a `required` ``RelyingParty/userVerification`` policy wins.
    ///   - excludeCredentials: the user's existing credentials, so an authenticator is not registered twice.
    ///   - authenticatorAttachment: `platform` or `cross-platform`, if the RP prefers one.
    ///   - residentKey: the discoverable-credential requirement (the RP's policy when nil).
    ///   - attestation: the attestation conveyance preference (the RP's policy when nil).
    ///   - mediation: `conditional` for an automatic passkey upgrade, whose result may lack UP (WebAuthn L3 §7.1).
    ///   - hints: which kind of authenticator the client should offer first (`hints`), if any.
    ///   - extensions: the client extension inputs to send (`credProps` is always asked for).
    /// - Returns: the options to send and the pending value to keep until the response comes back.
    public func beginRegistration(
        for user: UserEntity,
        excludeCredentials: [PublicKeyCredentialDescriptor] = [],
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        residentKey: ResidentKeyRequirement? = nil,
        userVerification: UserVerificationRequirement? = nil,
        attestation: AttestationConveyancePreference? = nil,
        mediation: CredentialMediationRequirement? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: [String: JSONValue]? = nil
    ) -> (options: PublicKeyCredentialCreationOptions, pending: PendingRegistration) {
        let requirement = effectiveUserVerification(userVerification)
        let options = beginRegistration(
            user: user, excludeCredentials: excludeCredentials, authenticatorAttachment: authenticatorAttachment,
            residentKey: residentKey, userVerification: requirement, attestation: attestation, hints: hints,
            extensions: extensions
        )
        let pending = PendingRegistration(
            challenge: options.challenge.bytes, user: user, userVerification: requirement, mediation: mediation
        )
        return (options, pending)
    }

    /// Verifies a registration against what its options promised (WebAuthn §7.1): the challenge, the
    /// user-verification requirement, and user presence unless the ceremony was begun with `conditional` mediation.
    ///
    /// - Parameters:
    ///   - credential: the credential the client sent, parsed (`RegistrationCredential.parse(_:)`).
    ///   - pending: the value ``beginRegistration(for:excludeCredentials:authenticatorAttachment:residentKey:userVerification:attestation:mediation:hints:extensions:)`` returned.
    ///   - time: the moment at which certificates are judged; now by default.
    /// - Returns: everything the server stores about the new credential, and how it was attested.
    /// - Throws: ``WebAuthnError`` with the code of the check that failed.
    public func finishRegistration(
        _ credential: RegistrationCredential, pending: PendingRegistration, at time: Date = Date()
    ) async throws(WebAuthnError) -> VerifiedRegistration {
        try await finishRegistration(
            credential, expectedChallenge: pending.challenge.bytes,
            requireUserVerification: pending.userVerification == .required,
            requireUserPresence: pending.mediation == .conditional ? false : nil, at: time
        )
    }
}
