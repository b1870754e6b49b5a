import Foundation
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// What a client may ask of a registration beyond the server's policy (the conformance profile's request
/// members; the native API uses the defaults).
struct RegistrationPreferences: Sendable {
    var authenticatorSelection: AuthenticatorSelectionCriteria?
    var attestation: AttestationConveyancePreference?
    var extensions: [String: JSONValue]?
    /// The label for the new passkey.
    var label: String?
    /// Begun for conditional mediation (`mediation: "conditional"` create): the result may lack UP.
    var conditional = false
}

/// Who a registration is for: a new account, or an existing one (signed in).
enum RegistrationSubject: Sendable {
    case newUser(name: String, displayName: String)
    /// A new account whose name comes with the credential (a passkey sign-up sheet).
    case unnamedUser
    case existingUser(StoredUser)
    /// An account whose user lost their passkeys and proved who they are another way (a recovery code): finishing
    /// the ceremony adds the passkey and signs in, with no session before it.
    case recoveringUser(StoredUser)
}

extension CeremonyService {
    /// Begins a registration: makes the options (excluding the user's existing passkeys) and stores the ceremony.
    func beginRegistration(
        for subject: RegistrationSubject, preferences: RegistrationPreferences = RegistrationPreferences(),
        now: Date = Date()
    ) async throws -> RegistrationOptionsResponse {
        let purpose: RegistrationState.Purpose
        let userID: UUID
        let user: UserEntity
        var excluded: [PublicKeyCredentialDescriptor] = []
        var accountCreation: Bool?
        switch subject {
        case .newUser(let name, let displayName):
            (purpose, userID) = (.signUp, UUID())
            user = UserEntity(id: Self.makeUserHandle(), name: name, displayName: displayName)
        case .unnamedUser:
            (purpose, userID) = (.signUp, UUID())
            user = UserEntity(id: Self.makeUserHandle(), name: "", displayName: "")
            accountCreation = true
        case .existingUser(let existing), .recoveringUser(let existing):
            if case .recoveringUser = subject { purpose = .recover } else { purpose = .addPasskey }
            userID = existing.id
            user = UserEntity(id: Array(existing.userHandle), name: existing.name, displayName: existing.displayName)
            excluded = try await store.credentials(ofUser: existing.id).map(\.descriptor)
        }

        let selection = preferences.authenticatorSelection
        let residentKey = selection?.residentKey ?? (selection?.requireResidentKey == true ? .required : nil)
        var (options, pending) = relyingParty.beginRegistration(
            for: user,
            excludeCredentials: excluded,
            authenticatorAttachment: selection?.authenticatorAttachment,
            residentKey: residentKey,
            userVerification: selection?.userVerification,
            attestation: preferences.attestation,
            // Only a passkey added to a signed-in account may be an automatic upgrade (a result without UP).
            mediation: preferences.conditional && purpose == .addPasskey ? .conditional : nil,
            extensions: preferences.extensions
        )
        if let selection {
            // Echo what was asked, completed with what the server decided.
            var echoed = selection
            echoed.userVerification = pending.userVerification
            echoed.residentKey = options.authenticatorSelection?.residentKey
            options.authenticatorSelection = echoed
        }
        let state = RegistrationState(
            purpose: purpose, userID: userID, label: preferences.label,
            accountCreation: accountCreation, pending: pending
        )
        return RegistrationOptionsResponse(
            ticket: try await tickets.seal(.registration, state: state, now: now), options: options)
    }

    /// Finishes a registration the way a sign-in finishes: opens the ticket, verifies the credential, and in one
    /// transaction spends the ticket and commits the credential (with the new user and a session for a
    /// sign-up). Of concurrent finishes exactly one commits; the others get 404 `ceremony.notFound`. A finish that
    /// fails spends the ticket all the same, so a challenge is never tried twice.
    ///
    /// - Parameter caller: finds the caller; asked only when the ceremony adds a passkey to an existing account,
    ///   which needs that account's session (401 `session.required` without one, 403 `session.wrongUser` for another
    ///   account's). `requirePurpose` refuses ceremonies begun for the other purpose.
    /// - Parameter naming: the new account's name and display name, validated, for a ceremony begun for a passkey
    ///   sign-up sheet (``RegistrationSubject/unnamedUser``), which only accepts a finish that names it; any other
    ///   ceremony only accepts one that does not.
    /// - Parameter client: the client a sign-up's new session records (a new account's session counts as verified).
    func finishRegistration(
        ticket: String, credential: RegistrationCredential, caller: () async throws -> SignedIn?,
        requirePurpose: RegistrationState.Purpose? = nil, naming: (name: String, displayName: String)? = nil,
        client: SessionClient, now: Date = Date()
    ) async throws -> CeremonyOutcome {
        let (spent, state) = try await tickets.open(ticket, kind: .registration, as: RegistrationState.self, now: now)
        return try await burningOnFailure(ticket: spent, kind: .registration) {
            if let requirePurpose, state.purpose != requirePurpose {
                throw CeremonyError.notFound(.registration, detail: "the ticket is not for this kind of registration")
            }
            guard (state.accountCreation == true) == (naming != nil) else {
                throw CeremonyError.notFound(
                    .registration,
                    detail: naming == nil
                        ? "the ticket is for a passkey sign-up sheet: finish it at the account-creation verify"
                        : "the ticket is not for a passkey sign-up sheet")
            }
            var user = state.pending.user
            if let naming {
                try await UserNames.requireAvailable(naming.name, in: store)
                (user.name, user.displayName) = naming
            }
            var owner: StoredUser?
            switch state.purpose {
            case .addPasskey:
                guard let signedIn = try await caller() else { throw CeremonyError.sessionRequired }
                guard signedIn.user.id == state.userID else { throw CeremonyError.wrongUser }
                owner = signedIn.user
            case .recover:
                guard let recovering = try await store.user(id: state.userID) else {
                    throw CeremonyError.notFound(.registration, detail: "the account no longer exists")
                }
                owner = recovering
            case .signUp:
                break
            }
            let verified = try await relyingParty.finishRegistration(credential, pending: state.pending, at: now)
            let stored = StoredCredential(verified: verified, userID: state.userID, label: state.label, now: now)
            if let owner, state.purpose == .recover {
                // The recovery code proved the user: the new passkey's session counts as verified.
                let (session, token) = sessions.issue(
                    for: owner.id, credentialID: stored.id, verified: true, client: client, now: now)
                try await commit(spending: spent, stored, creating: nil, session: session, recovering: true)
                return CeremonyOutcome(user: owner, credential: stored, session: session, token: token)
            }
            if let owner {
                try await commit(spending: spent, stored, creating: nil, session: nil)
                return CeremonyOutcome(user: owner, credential: stored, session: nil, token: nil)
            }
            let newUser = StoredUser(
                id: state.userID, userHandle: Data(user.id.bytes), name: user.name, displayName: user.displayName,
                createdAt: now
            )
            let (session, token) = sessions.issue(
                for: newUser.id, credentialID: stored.id, verified: true, client: client, now: now)
            do {
                try await commit(spending: spent, stored, creating: newUser, session: session)
            } catch let error as StoreError where naming != nil && error.code == .conflict {
                // The name was taken by a concurrent sign-up after the check above.
                if (try? await store.user(named: newUser.name)) != nil {
                    throw CeremonyError.nameTaken(newUser.name)
                }
                throw error
            }
            return CeremonyOutcome(user: newUser, credential: stored, session: session, token: token)
        }
    }

    /// ``LatchkeyStore/commitRegistration(spending:_:creating:session:)``; a ticket spent already (by a concurrent
    /// finish) is 404 `ceremony.notFound`.
    /// The audit log records the passkey added (and the account, when the registration creates it) in the same
    /// transaction.
    private func commit(
        spending ticket: SpentTicket, _ credential: StoredCredential, creating user: StoredUser?,
        session: StoredSession?, recovering: Bool = false
    ) async throws {
        var events: [AuditEvent] = []
        if audit.isOn {
            if let user { events.append(audit.event(.accountCreated, user: user.id, detail: "passkey")) }
            if recovering { events.append(audit.event(.recoveryUsed, user: credential.userID)) }
            events.append(await audit.event(.passkeyAdded, credential: credential))
        }
        let committed = try await audit.recording(events) { () async throws(StoreError) in
            try await store.commitRegistration(spending: ticket, credential, creating: user, session: session)
        }
        guard committed else { throw CeremonyError.notFound(.registration) }
    }
}

extension StoredCredential {
    /// The record to store for a verified registration.
    init(verified: VerifiedRegistration, userID: UUID, label: String?, now: Date) {
        self.init(
            id: Data(verified.credentialID), userID: userID, publicKey: Data(verified.publicKey),
            algorithm: verified.algorithm.rawValue, signCount: verified.signCount, aaguid: verified.aaguid.uuid,
            transports: verified.transports.map(\.rawValue), backupEligible: verified.backupEligible,
            backedUp: verified.backedUp, attestationFormat: verified.attestationFormat,
            userVerified: verified.userVerified, discoverable: verified.isDiscoverable, label: label, createdAt: now
        )
    }

    /// The descriptor that names this credential in `excludeCredentials` / `allowCredentials`.
    var descriptor: PublicKeyCredentialDescriptor {
        PublicKeyCredentialDescriptor(
            id: Array(id), transports: transports.isEmpty ? nil : transports.map(AuthenticatorTransport.init(rawValue:))
        )
    }
}
