import Foundation
import LatchkeyAPI
import LatchkeyStore
import Logging
import WebAuthn

extension CeremonyService {
    /// Begins a sign-in. With a username the options allow that user's passkeys (for an unknown name or an account
    /// without a passkey, made-up ones from ``DecoyCredentials``, so the answer does not tell); without one the
    /// sign-in is username-less and any discoverable passkey may answer. Options are not limited per name (only per
    /// address): they reveal nothing and a passkey cannot be guessed, and a per-name limit let anyone stop a user's
    /// sign-in.
    func beginAuthentication(
        username: String?, userVerification requested: UserVerificationRequirement? = nil,
        extensions: [String: JSONValue]? = nil, now: Date = Date()
    ) async throws -> AuthenticationOptionsResponse {
        var subject = AuthenticatingUser.discoverable
        if let username = username.map(UsernameProfile.prepared), !username.isEmpty {
            if let account = try await store.account(named: username), !account.credentials.isEmpty {
                subject = .identified(
                    userHandle: Array(account.user.userHandle), credentials: account.credentials.map(\.descriptor))
            } else {
                // A name no account has, or an account without a passkey (password or Apple only): made-up
                // credentials, and a user handle no credential has, so that any passkey fails as another account's
                // passkey does.
                subject = .identified(
                    userHandle: Self.makeUserHandle(), credentials: try await decoys.descriptors(for: username))
            }
        }
        let (options, pending) = relyingParty.beginAuthentication(
            for: subject, userVerification: requested, extensions: extensions)
        return AuthenticationOptionsResponse(
            ticket: try await tickets.seal(.authentication, state: pending, now: now), options: options)
    }

    /// Finishes a sign-in: opens the ticket, verifies the assertion against the stored credential and its
    /// owner, read with the owner's other credentials in one statement (``WebAuthn/RelyingParty/finishAuthentication(_:pending:credential:)``), and in one transaction consumes
    /// the ticket and records the new sign count, backup state and a new session. Of concurrent finishes of one
    /// ceremony exactly one commits; the others get 404 `ceremony.notFound`. A finish that fails spends the ticket all
    /// the same, so a challenge is never tried twice.
    ///
    /// The sign count is compared-and-set: of two sign-ins verified against the same stored count, the second to
    /// commit is refused (409 `credential.concurrentSignIn`), so concurrent assertions cannot move the counter
    /// backwards unseen.
    func finishAuthentication(
        ticket: String, credential: AuthenticationCredential, client: SessionClient, now: Date = Date()
    ) async throws -> CeremonyOutcome {
        let (spent, pending) = try await tickets.open(
            ticket, kind: .authentication, as: PendingAuthentication.self, now: now)
        return try await recordingFailure(of: credential) {
            try await burningOnFailure(ticket: spent, kind: .authentication) {
                try await verifyAndCommit(credential, ticket: spent, pending: pending, client: client, now: now)
            }
        }
    }

    /// Runs a sign-in's verification; when it fails (but for the store being out of reach), records `signin.failed`
    /// with the code answered, for the credential's account when the server knows it.
    private func recordingFailure(
        of credential: AuthenticationCredential, _ body: () async throws -> CeremonyOutcome
    ) async throws -> CeremonyOutcome {
        do {
            return try await body()
        } catch {
            if audit.isOn, !((error as? StoreError).map { [.unavailable, .busy].contains($0.code) } ?? false) {
                let owner = try? await store.credential(id: Data(credential.rawId.bytes))?.userID
                await audit.record(audit.event(.signInFailed, user: owner, detail: APIError(error).code, now: Date()))
            }
            throw error
        }
    }

    /// Begins a re-authentication of `user` (``Reauthentication``): options over the user's passkeys, with user
    /// verification required when every one of them verified the user when it was registered (preferred otherwise: a
    /// security key without user verification proves itself by a touch, and the finish holds each passkey to what it
    /// can do).
    func beginReauthentication(of user: StoredUser, now: Date = Date()) async throws -> AuthenticationOptionsResponse {
        let credentials = try await store.credentials(ofUser: user.id)
        let (options, pending) = relyingParty.beginAuthentication(
            for: .identified(userHandle: Array(user.userHandle), credentials: credentials.map(\.descriptor)),
            userVerification: credentials.allSatisfy(\.userVerified) ? .required : .preferred)
        return AuthenticationOptionsResponse(
            ticket: try await tickets.seal(.authentication, state: pending, now: now), options: options)
    }

    /// Finishes a re-authentication: a sign-in as ``finishAuthentication(ticket:credential:client:now:)`` makes it,
    /// which must be `user`'s own passkey (403 `session.wrongUser` otherwise) proving the user as well as that passkey
    /// can: with user verification when it verified the user at registration, whatever the ticket asked for. The new
    /// session counts as verified now.
    func finishReauthentication(
        ticket: String, credential: AuthenticationCredential, of user: StoredUser, client: SessionClient,
        now: Date = Date()
    ) async throws -> CeremonyOutcome {
        let (spent, pending) = try await tickets.open(
            ticket, kind: .authentication, as: PendingAuthentication.self, now: now)
        return try await burningOnFailure(ticket: spent, kind: .authentication) {
            try await verifyAndCommit(
                credential, ticket: spent, pending: pending, client: client, reauthenticating: user, now: now)
        }
    }

    private func verifyAndCommit(
        _ credential: AuthenticationCredential, ticket: SpentTicket, pending: PendingAuthentication,
        client: SessionClient, reauthenticating: StoredUser? = nil, now: Date
    ) async throws -> CeremonyOutcome {
        let credentialID = Data(credential.rawId.bytes)
        guard let account = try await store.account(ofCredential: credentialID),
            let stored = account.credential(id: credentialID)
        else {
            // The ID and RP ID let the client tell the passkey provider (PublicKeyCredential.signalUnknownCredential).
            throw CeremonyError.credentialNotFound(id: credential.rawId.bytes, rpID: relyingParty.id)
        }
        let user = account.user
        let record = CredentialRecord(
            id: Array(stored.id), publicKey: Array(stored.publicKey), signCount: stored.signCount,
            userHandle: Array(user.userHandle), backupEligible: stored.backupEligible
        )
        if let reauthenticating, reauthenticating.id != user.id { throw CeremonyError.wrongUser }
        let verified = try relyingParty.finishAuthentication(credential, pending: pending, credential: record)
        // The most this passkey can prove: user verification when it did so at registration, presence otherwise.
        let provedUser = verified.userVerified || !stored.userVerified
        if reauthenticating != nil, !provedUser {
            throw WebAuthnError(
                .userVerificationRequired, "re-authentication with this passkey needs user verification (the UV flag)")
        }
        let (session, token) = sessions.issue(
            for: user.id, credentialID: stored.id, verified: provedUser, client: client, now: now)
        let committed = try await commitSignIn(
            ticket: ticket, credential: stored, verified: verified, session: session, now: now)
        guard committed else { throw CeremonyError.notFound(.authentication) }
        var updated = stored
        updated.signCount = verified.newSignCount
        updated.backupEligible = verified.backupEligible
        updated.backedUp = verified.backedUp
        updated.lastUsedAt = now
        // The account's credentials, read with the signing one, name the accepted credentials in the answer's signals.
        return CeremonyOutcome(
            user: user, credential: updated, session: session, token: token,
            accountCredentials: account.credentials.map { $0.id == updated.id ? updated : $0 }
        )
    }

    /// ``LatchkeyStore/commitAuthentication(spending:credentialID:newSignCount:backupEligible:backedUp:usedAt:session:previousSignCount:)``
    /// with the sign count compared against `credential`'s; a moved count is 409 `credential.concurrentSignIn`. The
    /// backup-eligible flag it stores is the assertion's: it differs from the stored one only when
    /// `--backup-eligibility-change accept-and-record` let the sign-in through, and then the change is logged.
    private func commitSignIn(
        ticket: SpentTicket, credential: StoredCredential, verified: VerifiedAuthentication, session: StoredSession,
        now: Date
    ) async throws -> Bool {
        var events: [AuditEvent] = []
        if audit.isOn {
            events.append(await audit.event(.signInSucceeded, credential: credential, detail: "passkey", now: now))
        }
        if verified.backupEligibilityChanged {
            logBackupEligibilityChange(of: credential, to: verified.backupEligible)
            if audit.isOn {
                events.append(
                    await audit.event(
                        .passkeyBackupEligibilityChanged, credential: credential,
                        detail: "backupEligible=\(verified.backupEligible)", now: now))
            }
        }
        do {
            return try await audit.recording(events) { () async throws(StoreError) in
                try await store.commitAuthentication(
                    spending: ticket, credentialID: credential.id, newSignCount: verified.newSignCount,
                    backupEligible: verified.backupEligible, backedUp: verified.backedUp, usedAt: now, session: session,
                    previousSignCount: credential.signCount
                )
            }
        } catch {
            throw error.meaning([.conflict: CeremonyError.concurrentSignIn])
        }
    }

    /// A passkey's backup-eligible flag changed and `--backup-eligibility-change accept-and-record` accepted it.
    private func logBackupEligibilityChange(of credential: StoredCredential, to eligible: Bool) {
        let metadata: Logger.Metadata = [
            "user.id": .string(credential.userID.uuidString), "passkey.aaguid": .string(credential.aaguid.uuidString),
            "backupEligible": .string(String(eligible)),
        ]
        logger.notice("a passkey's backup eligibility changed; accepted and recorded", metadata: metadata)
    }
}
