import CBOR
import Crypto
import Foundation
import WebAuthn

/// A software WebAuthn authenticator together with the client (browser) in front of it.
///
/// It takes the options a relying party sends and returns exactly the JSON a browser would
/// (`RegistrationResponseJSON` / `AuthenticationResponseJSON`), so tests, the command line and load tests can
/// run real ceremonies anywhere:
///
/// ```swift
/// let authenticator = VirtualAuthenticator(configuration: .passkeyProvider)
/// let options = relyingParty.beginRegistration(user: user)
/// let credential = try await authenticator.register(options: options, origin: "https://example.com")
/// let json = try JSONEncoder().encode(credential)   // what the server receives
/// ```
///
/// Credentials live in a ``CredentialStore``; signature counters advance there. Like a hardware
/// authenticator, it runs one ceremony at a time: concurrent calls wait their turn, so each assertion gets
/// its own counter value. (Two authenticators sharing one store do not coordinate.)
public actor VirtualAuthenticator {
    /// Every algorithm the virtual authenticator signs with on this system: all that swift-crypto can, with ML-DSA-65
    /// and ML-DSA-87 only where the platform has ML-DSA (always on Linux; iOS 26 and macOS 26 on Apple platforms).
    public static let supportedAlgorithms: [COSEAlgorithm] =
        [
            .es256, .esp256, .es384, .esp384, .es512, .esp512, .edDSA, .ed25519, .rs256, .rs384, .rs512, .ps256, .ps384,
            .ps512, .rs1,
        ]
        + (MLDSAParameterSet.isAvailable ? [.mlDSA65, .mlDSA87] : [])

    /// The AAGUID a virtual authenticator reports unless configured otherwise (`LatchkeyVirtual!` in ASCII).
    public static let defaultAAGUID = AAGUID(bytes: Array("LatchkeyVirtual!".utf8))

    /// What kind of authenticator this is.
    public nonisolated let configuration: VirtualAuthenticatorConfiguration
    /// Where its credentials live.
    public nonisolated let store: any CredentialStore
    /// Made on first use, then kept: an authenticator has one attestation certificate.
    private var attestationIdentity: AttestationIdentity?
    /// Whether a ceremony is running, and the ceremonies waiting for it (actor reentrancy would otherwise
    /// interleave two ceremonies' store reads and writes across their awaits).
    private var ceremonyRunning = false
    private var ceremoniesWaiting: [CheckedContinuation<Void, Never>] = []
    /// Keys loaded for signing, by credential ID, with the portable bytes they were loaded from: loading a P-256
    /// key from its DER form derives its public key (a point multiplication), which cost about as much as the
    /// signature itself on every sign-in. A stored key that changed is loaded again.
    private var loadedKeys: [[UInt8]: (portableBytes: [UInt8], key: SigningKey)] = [:]
    /// At most this many keys are kept loaded; past it the cache starts again.
    private static let loadedKeyLimit = 256
    /// Origins parsed for the RP ID rule, by their text; past ``parsedOriginLimit`` the cache starts again.
    private var parsedOrigins: [String: RelyingPartyIDCheck.Origin] = [:]
    private static let parsedOriginLimit = 16

    /// An authenticator with `configuration`, keeping credentials in `store` (in memory by default).
    public init(
        configuration: VirtualAuthenticatorConfiguration = VirtualAuthenticatorConfiguration(),
        store: any CredentialStore = InMemoryCredentialStore()
    ) {
        self.configuration = configuration
        self.store = store
    }

    // MARK: Registration

    /// Creates a credential, as `navigator.credentials.create()` does.
    ///
    /// - Parameters:
    ///   - options: the options from the relying party.
    ///   - origin: the calling origin (`https://example.com`, or an app's `android:apk-key-hash:…`).
    ///   - topOrigin: the top-level origin when the call comes from a cross-origin iframe.
    ///   - tampering: faults for negative tests; ``Tampering/none`` otherwise.
    /// - Throws: ``VirtualAuthenticatorError``.
    public func register(
        options: PublicKeyCredentialCreationOptions,
        origin: String,
        topOrigin: String? = nil,
        tampering: Tampering = .none
    ) async throws(VirtualAuthenticatorError) -> RegistrationCredential {
        await beginCeremony()
        defer { endCeremony() }
        let rpID = try rpID(requested: options.rp.id, origin: origin)
        let algorithm = try chooseAlgorithm(options.pubKeyCredParams)
        try await checkExcludedCredentials(options.excludeCredentials ?? [], rpID: rpID)
        let selection = options.authenticatorSelection
        let userVerified = try performUserVerification(selection?.userVerification)
        let discoverable = try makesDiscoverableCredential(selection)

        let key = try SigningKey.generate(for: algorithm, rsaKeys: configuration.rsaKeySource)
        let publicKey = try key.coseKey()
        let credentialID = RelyingParty.generateChallenge(
            byteCount: min(max(configuration.credentialIDLength, 1), 1023))
        let record = CredentialSource(
            id: credentialID, rpID: rpID, userHandle: options.user.id.bytes, userName: options.user.name,
            userDisplayName: options.user.displayName, algorithm: algorithm, privateKey: key.portableBytes,
            isDiscoverable: discoverable, backupEligible: configuration.backupEligible,
            backedUp: configuration.backupEligible && configuration.backedUp
        )

        let authenticatorData = AuthenticatorDataBuilder(
            rpID: tampering.rpID ?? rpID,
            flags: flags(for: record, userVerified: userVerified, tampering: tampering),
            signCount: tampering.signCount ?? record.signCount,
            attestedCredential: .init(
                aaguid: configuration.attestation.isFIDOU2F ? .zero : configuration.aaguid, credentialID: credentialID,
                publicKey: publicKey
            )
        ).serialize()
        let clientDataJSON = clientData(
            type: CollectedClientData.createType, challenge: options.challenge.bytes, origin: origin,
            topOrigin: topOrigin, tampering: tampering
        )

        let builder = try conveyedStatementBuilder(preference: options.attestation)
        let statement = try builder.statement(
            for: .init(
                authenticatorData: authenticatorData, clientDataHash: Array(SHA256.hash(data: clientDataJSON)),
                credentialID: credentialID, credentialKey: key, credentialPublicKey: publicKey
            ),
            tampering: tampering
        )
        let attestationObject = CBOREncoder.encode(
            .map(
                CBORMap([
                    ("fmt", .textString(builder.format)),
                    ("attStmt", .map(statement)),
                    ("authData", .byteString(authenticatorData)),
                ])))

        try await save(record)

        var extensionResults: [String: JSONValue] = [:]
        if options.extensions?["credProps"]?.boolValue == true {
            extensionResults["credProps"] = .object(["rk": .bool(discoverable)])
        }
        return RegistrationCredential(
            rawId: tampering.rawID ?? credentialID,
            response: AuthenticatorAttestationResponse(
                clientDataJSON: clientDataJSON, attestationObject: attestationObject,
                authenticatorData: authenticatorData, transports: configuration.transports,
                publicKey: key.subjectPublicKeyInfo(), publicKeyAlgorithm: algorithm.rawValue
            ),
            authenticatorAttachment: configuration.authenticatorAttachment,
            clientExtensionResults: extensionResults
        )
    }

    // MARK: Authentication

    /// Signs in with a stored credential, as `navigator.credentials.get()` does.
    ///
    /// With `allowCredentials` the credential must be one of those; without, the request is username-less
    /// and any discoverable credential for the RP ID can answer.
    ///
    /// - Parameters:
    ///   - options: the options from the relying party.
    ///   - origin: the calling origin.
    ///   - topOrigin: the top-level origin when the call comes from a cross-origin iframe.
    ///   - choice: which credential to use when several fit (the account chooser).
    ///   - tampering: faults for negative tests; ``Tampering/none`` otherwise.
    /// - Throws: ``VirtualAuthenticatorError``; `noMatchingCredential` when nothing fits.
    public func authenticate(
        options: PublicKeyCredentialRequestOptions,
        origin: String,
        topOrigin: String? = nil,
        choice: CredentialChoice = .mostRecent,
        tampering: Tampering = .none
    ) async throws(VirtualAuthenticatorError) -> AuthenticationCredential {
        await beginCeremony()
        defer { endCeremony() }
        let rpID = try rpID(requested: options.rpId, origin: origin)
        var record = try await chooseCredential(
            rpID: rpID, allowCredentials: options.allowCredentials ?? [], choice: choice)
        let userVerified = try performUserVerification(options.userVerification)
        let key = try signingKey(for: record)

        if !configuration.counterAlwaysZero { record.signCount &+= 1 }
        try await save(record)

        let authenticatorData = AuthenticatorDataBuilder(
            rpID: tampering.rpID ?? rpID,
            flags: flags(for: record, userVerified: userVerified, tampering: tampering),
            signCount: tampering.signCount ?? record.signCount,
            attestedCredential: nil
        ).serialize()
        let clientDataJSON = clientData(
            type: CollectedClientData.getType, challenge: options.challenge.bytes, origin: origin,
            topOrigin: topOrigin, tampering: tampering
        )
        let signature = try key.sign(authenticatorData + Array(SHA256.hash(data: clientDataJSON)))

        return AuthenticationCredential(
            rawId: tampering.rawID ?? record.id,
            response: AuthenticatorAssertionResponse(
                clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
                signature: tampering.applied(toSignature: signature),
                userHandle: record.isDiscoverable ? record.userHandle : nil
            ),
            authenticatorAttachment: configuration.authenticatorAttachment
        )
    }

    /// The RP ID for `requested` at `origin` (``RelyingPartyIDCheck``), with the origin parsed once.
    private func rpID(requested: String?, origin: String) throws(VirtualAuthenticatorError) -> String {
        let parsed: RelyingPartyIDCheck.Origin
        if let known = parsedOrigins[origin] {
            parsed = known
        } else {
            parsed = RelyingPartyIDCheck.Origin(origin)
            if parsedOrigins.count >= Self.parsedOriginLimit { parsedOrigins.removeAll() }
            parsedOrigins[origin] = parsed
        }
        return try RelyingPartyIDCheck.rpID(requested: requested, origin: origin, parsed: parsed)
    }

    /// The record's key, loaded once while its stored bytes stay the same.
    private func signingKey(for record: CredentialSource) throws(VirtualAuthenticatorError) -> SigningKey {
        if let loaded = loadedKeys[record.id], loaded.portableBytes == record.privateKey,
            loaded.key.algorithm == record.algorithm
        {
            return loaded.key
        }
        let key = try SigningKey(algorithm: record.algorithm, portableBytes: record.privateKey)
        if loadedKeys.count >= Self.loadedKeyLimit { loadedKeys.removeAll(keepingCapacity: true) }
        loadedKeys[record.id] = (record.privateKey, key)
        return key
    }

    // MARK: One ceremony at a time

    private func beginCeremony() async {
        guard ceremonyRunning else {
            ceremonyRunning = true
            return
        }
        await withCheckedContinuation { ceremoniesWaiting.append($0) }
    }

    /// Hands the turn to the next waiting ceremony, if any.
    private func endCeremony() {
        if ceremoniesWaiting.isEmpty {
            ceremonyRunning = false
        } else {
            ceremoniesWaiting.removeFirst().resume()
        }
    }

    // MARK: Steps

    /// The first requested algorithm this authenticator supports; an empty list means ES256 then RS256
    /// (WebAuthn §5.1.3 step 10). `fido-u2f` can only make P-256 keys.
    private func chooseAlgorithm(_ parameters: [PublicKeyCredentialParameters]) throws(VirtualAuthenticatorError)
        -> COSEAlgorithm
    {
        let requested =
            parameters.isEmpty
            ? [COSEAlgorithm.es256, .rs256]
            : parameters.filter { $0.type == .publicKey }.map(\.alg)
        var supported = configuration.algorithms
        if configuration.attestation.isFIDOU2F { supported = supported.filter { $0 == .es256 } }
        guard let algorithm = requested.first(where: supported.contains) else {
            throw .unsupportedAlgorithm(requested: requested)
        }
        return algorithm
    }

    private func checkExcludedCredentials(
        _ excluded: [PublicKeyCredentialDescriptor], rpID: String
    ) async throws(VirtualAuthenticatorError) {
        guard !excluded.isEmpty else { return }
        let existing = Set(try await storedCredentials(rpID: rpID).map(\.id))
        if let match = excluded.first(where: { existing.contains($0.id.bytes) }) {
            throw .excludedCredentialExists(credentialID: match.id.bytes)
        }
    }

    private func chooseCredential(
        rpID: String, allowCredentials: [PublicKeyCredentialDescriptor], choice: CredentialChoice
    ) async throws(VirtualAuthenticatorError) -> CredentialSource {
        let stored = try await storedCredentials(rpID: rpID)
        let allowed = Set(allowCredentials.map(\.id.bytes))
        let candidates =
            allowed.isEmpty
            ? stored.filter(\.isDiscoverable)
            : stored.filter { allowed.contains($0.id) }
        guard !candidates.isEmpty else { throw .noMatchingCredential(rpID: rpID) }
        if case .ask = choice {
            guard let chosen = choice.pick(from: candidates) else { throw .selectionCancelled }
            return chosen
        }
        guard let chosen = choice.pick(from: candidates) else { throw .noMatchingCredential(rpID: rpID) }
        return chosen
    }

    /// Verifies the user unless the relying party discourages it; fails when it is required and unsupported.
    private func performUserVerification(_ requirement: UserVerificationRequirement?) throws(VirtualAuthenticatorError)
        -> Bool
    {
        let requirement = requirement ?? .preferred
        if requirement == .required, !configuration.supportsUserVerification {
            throw .userVerificationUnavailable
        }
        return configuration.supportsUserVerification && requirement != .discouraged
    }

    private func makesDiscoverableCredential(_ selection: AuthenticatorSelectionCriteria?)
        throws(VirtualAuthenticatorError) -> Bool
    {
        let requirement = selection?.residentKey ?? (selection?.requireResidentKey == true ? .required : .discouraged)
        switch configuration.discoverableCredentials {
        case .unsupported:
            if requirement == .required { throw .residentKeyUnavailable }
            return false
        case .whenRequestedOrPreferred:
            return requirement == .required || requirement == .preferred
        case .always:
            return true
        }
    }

    private func flags(for record: CredentialSource, userVerified: Bool, tampering: Tampering) -> AuthenticatorFlags {
        var flags: AuthenticatorFlags = []
        if !tampering.clearUserPresence { flags.insert(.userPresent) }
        if userVerified, !tampering.clearUserVerification { flags.insert(.userVerified) }
        if tampering.backedUpWithoutBackupEligibility {
            flags.insert(.backedUp)
        } else {
            if record.backupEligible { flags.insert(.backupEligible) }
            if record.backedUp { flags.insert(.backedUp) }
        }
        return flags
    }

    private func clientData(
        type: String, challenge: [UInt8], origin: String, topOrigin: String?, tampering: Tampering
    ) -> [UInt8] {
        var challengeText = Base64URL.encode(tampering.challenge ?? challenge)
        if tampering.challengeAsBase64URLText { challengeText = Base64URL.encode(Array(challengeText.utf8)) }
        return ClientDataSerializer(
            type: tampering.clientDataType ?? type, challenge: challengeText, origin: tampering.origin ?? origin,
            crossOrigin: tampering.crossOrigin ?? (topOrigin != nil), topOrigin: topOrigin
        ).serialize()
    }

    /// The statement builder for the configured attestation, after the client has applied the relying
    /// party's conveyance preference: for `none` it keeps only zero-AAGUID self attestation (WebAuthn L3
    /// §5.1.3 step 22).
    private func conveyedStatementBuilder(
        preference: AttestationConveyancePreference?
    ) throws(VirtualAuthenticatorError) -> AttestationStatementBuilder {
        let requestsNone = preference == nil || preference == AttestationConveyancePreference.none
        let anonymize = configuration.honorsNoneAttestationPreference && requestsNone
        switch configuration.attestation {
        case .none:
            return .none
        case .packedSelf:
            return anonymize && !configuration.aaguid.isZero ? .none : .packedSelf
        case .packed(let authority):
            return anonymize
                ? .none : .packed(try identity(issuedBy: authority, aaguid: configuration.aaguid, leafOnly: false))
        case .fidoU2F(let authority):
            return anonymize ? .none : .fidoU2F(try identity(issuedBy: authority, aaguid: nil, leafOnly: true))
        }
    }

    private func identity(
        issuedBy authority: AttestationCA, aaguid: AAGUID?, leafOnly: Bool
    ) throws(VirtualAuthenticatorError) -> AttestationIdentity {
        if let attestationIdentity { return attestationIdentity }
        let identity = try AttestationIdentity(issuedBy: authority, aaguid: aaguid, leafOnly: leafOnly)
        attestationIdentity = identity
        return identity
    }

    // MARK: Store access

    private func storedCredentials(rpID: String) async throws(VirtualAuthenticatorError) -> [CredentialSource] {
        do {
            return try await store.credentials(rpID: rpID)
        } catch {
            throw .storeFailed("loading credentials for \(rpID): \(error)")
        }
    }

    private func save(_ record: CredentialSource) async throws(VirtualAuthenticatorError) {
        do {
            try await store.save(record)
        } catch {
            throw .storeFailed("saving credential \(Base64URL.encode(record.id)): \(error)")
        }
    }
}
