import Foundation
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
}

extension CeremonyService {
    /// Begins a registration: makes the options (excluding the user's existing passkeys) and stores the ceremony.
    func beginRegistration(
        for subject: RegistrationSubject, preferences: RegistrationPreferences = RegistrationPreferences(), now: Date = Date()
    ) async throws -> (ticket: String, options: PublicKeyCredentialCreationOptions) {
        let state: RegistrationState
        var excluded: [PublicKeyCredentialDescriptor] = []
        let selection = preferences.authenticatorSelection
        let userVerification = effectiveUserVerification(requested: selection?.userVerification, policy: relyingParty.userVerification)
        switch subject {
        case .newUser(let name, let displayName):
            state = RegistrationState(
                purpose: .signUp, userID: UUID(), userHandle: Data(Self.makeUserHandle()),
                name: name, displayName: displayName, requireUserVerification: userVerification == .required, label: preferences.label
            )
        case .unnamedUser:
            state = RegistrationState(
                purpose: .signUp, userID: UUID(), userHandle: Data(Self.makeUserHandle()),
                name: "", displayName: "", requireUserVerification: userVerification == .required, label: preferences.label,
                accountCreation: true
            )
        case .existingUser(let user):
            state = RegistrationState(
                purpose: .addPasskey, userID: user.id, userHandle: user.userHandle, name: user.name,
                displayName: user.displayName, requireUserVerification: userVerification == .required, label: preferences.label,
                conditional: preferences.conditional ? true : nil
            )
            excluded = try await store.credentials(ofUser: user.id).map(\.descriptor)
        }

        let residentKey = selection?.residentKey ?? (selection?.requireResidentKey == true ? .required : nil)
        var options = relyingParty.beginRegistration(
            user: UserEntity(id: Array(state.userHandle), name: state.name, displayName: state.displayName),
            excludeCredentials: excluded,
            authenticatorAttachment: selection?.authenticatorAttachment,
            residentKey: residentKey,
            userVerification: userVerification,
            attestation: preferences.attestation,
            extensions: preferences.extensions
        )
        if let selection {
            // Echo what was asked, completed with what the server decided.
            var echoed = selection
            echoed.userVerification = userVerification
            echoed.residentKey = options.authenticatorSelection?.residentKey
            options.authenticatorSelection = echoed
        }
        let existingUserID: UUID? = state.purpose == .addPasskey ? state.userID : nil
        let ticket = try await storeCeremony(
            .registration, challenge: options.challenge.bytes, userID: existingUserID, state: state, now: now
        )
        return (ticket, options)
    }

    /// Finishes a registration: consumes the ceremony, verifies the credential and commits it (with the new user
    /// and a session for a sign-up) in one transaction.
    ///
    /// - Parameter caller: finds the caller; asked only when the ceremony adds a passkey to an existing account,
    ///   which needs that account's session (401 `session.required` without one, 403 `session.wrongUser` for another
    ///   account's). `requirePurpose` refuses ceremonies begun for the other purpose.
    /// - Parameter naming: the new account's name and display name, validated, for a ceremony begun for a passkey
    ///   sign-up sheet (``RegistrationSubject/unnamedUser``), which only accepts a finish that names it; any other
    ///   ceremony only accepts one that does not.
    func finishRegistration(
        ticket: String, credential: RegistrationCredential, caller: () async throws -> SignedIn?,
        requirePurpose: RegistrationState.Purpose? = nil, naming: (name: String, displayName: String)? = nil, now: Date = Date()
    ) async throws -> CeremonyOutcome {
        let (ceremony, consumed) = try await consumeCeremony(ticket: ticket, kind: .registration, as: RegistrationState.self, now: now)
        return try await measure(.registration) {
            var state = consumed
            if let requirePurpose, state.purpose != requirePurpose {
                throw APIError(.notFound, code: "ceremony.notFound", message: "the ticket is not for this kind of registration")
            }
            guard (state.accountCreation == true) == (naming != nil) else {
                throw APIError(.notFound, code: "ceremony.notFound", message: naming == nil
                    ? "the ticket is for a passkey sign-up sheet: finish it at the account-creation verify"
                    : "the ticket is not for a passkey sign-up sheet")
            }
            if let naming {
                try await UserNames.requireAvailable(naming.name, in: store)
                (state.name, state.displayName) = naming
            }
            var owner: StoredUser?
            if state.purpose == .addPasskey {
                guard let signedIn = try await caller() else { throw APIError.sessionRequired }
                guard signedIn.user.id == state.userID else {
                    throw APIError(.forbidden, code: "session.wrongUser", message: "adding a passkey needs the session of the account it was begun for")
                }
                owner = signedIn.user
            }
            // Only a ceremony begun for conditional mediation accepts a result without UP (WebAuthn L3 §7.1).
            let verified = try await relyingParty.finishRegistration(
                credential, expectedChallenge: Array(ceremony.challenge),
                requireUserVerification: state.requireUserVerification,
                requireUserPresence: state.conditional == true ? false : nil, at: now
            )
            let stored = StoredCredential(verified: verified, userID: state.userID, label: state.label, now: now)
            if let owner {
                try await store.commitRegistration(stored, creating: nil, session: nil)
                return CeremonyOutcome(user: owner, credential: stored, session: nil, token: nil)
            }
            let user = StoredUser(id: state.userID, userHandle: state.userHandle, name: state.name, displayName: state.displayName, createdAt: now)
            let (session, token) = sessions.issue(for: user.id, credentialID: stored.id, now: now)
            do throws(StoreError) {
                try await store.commitRegistration(stored, creating: user, session: session)
            } catch {
                // The name was taken by a concurrent sign-up after the check above.
                if naming != nil, error.code == .conflict, (try? await store.user(named: user.name)) != nil {
                    throw APIError(.conflict, code: "user.nameTaken", message: "the username '\(user.name)' is taken")
                }
                throw error
            }
            return CeremonyOutcome(user: user, credential: stored, session: session, token: token)
        }
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
        PublicKeyCredentialDescriptor(id: Array(id), transports: transports.isEmpty ? nil : transports.map(AuthenticatorTransport.init(rawValue:)))
    }
}
