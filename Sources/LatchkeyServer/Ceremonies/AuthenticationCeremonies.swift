import Foundation
import LatchkeyStore
import WebAuthn

extension CeremonyService {
    /// Begins a sign-in. With a username the options allow that user's passkeys (for an unknown name, made-up ones
    /// from ``DecoyCredentials``, so the answer does not tell; attempts per name are limited by
    /// ``AccountNameLimiter``); without one the sign-in is username-less and any discoverable passkey may answer.
    func beginAuthentication(
        username: String?, userVerification requested: UserVerificationRequirement? = nil,
        extensions: [String: JSONValue]? = nil, now: Date = Date()
    ) async throws -> (ticket: String, options: PublicKeyCredentialRequestOptions) {
        var user: StoredUser?
        var allowed: [PublicKeyCredentialDescriptor] = []
        var decoy = false
        if let username = username.map(UserNames.normalized), !username.isEmpty {
            try await nameLimiter?.acquire(username, now: now)
            if let found = try await store.user(named: username) {
                user = found
                allowed = try await store.credentials(ofUser: found.id).map(\.descriptor)
            } else {
                allowed = try await decoys.descriptors(for: username)
                decoy = true
            }
        }
        let userVerification = effectiveUserVerification(requested: requested, policy: relyingParty.userVerification)
        let options = relyingParty.beginAuthentication(allowCredentials: allowed, userVerification: userVerification, extensions: extensions)
        let state = AuthenticationState(
            allowedCredentialIDs: allowed.map { Data($0.id.bytes) }, requireUserVerification: userVerification == .required,
            decoy: decoy ? true : nil
        )
        let ticket = try await storeCeremony(.authentication, challenge: options.challenge.bytes, userID: user?.id, state: state, now: now)
        return (ticket, options)
    }

    /// Finishes a sign-in: reads the pending ceremony, verifies the assertion against the stored credential, and
    /// in one transaction consumes the ceremony and records the new sign count, backup state and a new session. Of
    /// concurrent finishes of one ceremony exactly one commits; the others get 404 `ceremony.notFound`. A finish
    /// that fails consumes the ceremony all the same, so a challenge is never tried twice.
    ///
    /// The sign count is compared-and-set: of two sign-ins verified against the same stored count, the second to
    /// commit is refused (409 `credential.concurrentSignIn`), so concurrent assertions cannot move the counter
    /// backwards unseen.
    func finishAuthentication(ticket: String, credential: AuthenticationCredential, now: Date = Date()) async throws -> CeremonyOutcome {
        let (ceremony, state) = try await pendingCeremony(ticket: ticket, kind: .authentication, as: AuthenticationState.self, now: now)
        do {
            return try await measure(.authentication) {
                try await verifyAndCommit(credential, ceremony: ceremony, state: state, now: now)
            }
        } catch {
            // A concurrent finish of this ceremony committed while this one was verifying (it then sees the sign count
            // that finish recorded, say): this attempt lost the race, and says so, not what its late check found.
            guard await discardCeremony(ticket: ticket, kind: .authentication, now: now) else {
                throw Self.ceremonyNotFound(.authentication)
            }
            throw error
        }
    }

    private func verifyAndCommit(
        _ credential: AuthenticationCredential, ceremony: StoredCeremony, state: AuthenticationState, now: Date
    ) async throws -> CeremonyOutcome {
        guard let stored = try await store.credential(id: Data(credential.rawId.bytes)),
              let user = try await store.user(id: stored.userID)
        else {
            // The ID and RP ID let the client tell the passkey provider (PublicKeyCredential.signalUnknownCredential).
            var error = APIError(.notFound, code: "credential.notFound", message: "this passkey is not registered here (it may have been deleted)")
            error.credentialID = Base64URL.encode(credential.rawId.bytes)
            error.rpID = relyingParty.id
            throw error
        }
        if state.decoy == true || ceremony.userID.map({ $0 != stored.userID }) == true {
            throw WebAuthnError(.credentialNotAllowed, "the passkey belongs to another account than the one signing in")
        }
        if ceremony.userID == nil, credential.response.userHandle == nil {
            throw WebAuthnError(.userHandleMismatch, "a username-less sign-in needs the assertion's userHandle")
        }
        let record = CredentialRecord(
            id: Array(stored.id), publicKey: Array(stored.publicKey), signCount: stored.signCount,
            userHandle: Array(user.userHandle), backupEligible: stored.backupEligible
        )
        let verified = try relyingParty.finishAuthentication(
            credential, expectedChallenge: Array(ceremony.challenge), credential: record,
            allowedCredentialIDs: state.allowedCredentialIDs.map(Array.init),
            requireUserVerification: state.requireUserVerification
        )
        let (session, token) = sessions.issue(for: user.id, credentialID: stored.id, now: now)
        let committed = try await commitSignIn(
            ceremonyID: ceremony.id, credential: stored, newSignCount: verified.newSignCount, backedUp: verified.backedUp,
            session: session, now: now
        )
        guard committed else { throw Self.ceremonyNotFound(.authentication) }
        var updated = stored
        updated.signCount = verified.newSignCount
        updated.backedUp = verified.backedUp
        updated.lastUsedAt = now
        return CeremonyOutcome(user: user, credential: updated, session: session, token: token)
    }

    /// ``LatchkeyStore/commitAuthentication(consumingCeremony:credentialID:newSignCount:backedUp:usedAt:session:previousSignCount:)``
    /// with the sign count compared against `credential`'s; a moved count is 409 `credential.concurrentSignIn`.
    private func commitSignIn(
        ceremonyID: String, credential: StoredCredential, newSignCount: UInt32, backedUp: Bool, session: StoredSession, now: Date
    ) async throws -> Bool {
        do {
            return try await store.commitAuthentication(
                consumingCeremony: ceremonyID, credentialID: credential.id, newSignCount: newSignCount, backedUp: backedUp,
                usedAt: now, session: session, previousSignCount: credential.signCount
            )
        } catch where error.code == .conflict {
            throw APIError(
                .conflict, code: "credential.concurrentSignIn",
                message: "this passkey signed in somewhere else at the same moment, so its signature counter cannot be trusted for this attempt; sign in again"
            )
        }
    }
}
