import Foundation
import LatchkeyAPI
import LatchkeyStore
import Logging
import WebAuthn

/// Runs WebAuthn ceremonies against the store: begins them (makes options and stores the pending ceremony)
/// and finishes them (consumes the ceremony atomically, verifies with ``WebAuthn/RelyingParty``, commits the
/// outcome in one transaction). Both API profiles use it; they differ only in their wire shapes.
struct CeremonyService: Sendable {
    let store: any LatchkeyStore
    let relyingParty: RelyingParty
    let ceremonyLifetime: Duration
    let sessions: SessionAuthenticator
    let metrics: ServerMetrics
    /// Made-up `allowCredentials` for names no account has.
    let decoys: DecoyCredentials
    /// Sign-in attempts per account name, or nil when rate limiting is off.
    let nameLimiter: AccountNameLimiter?

    /// A new ticket: 32 random bytes, base64url (43 URL-safe characters).
    static func makeTicket() -> String {
        Base64URL.encode(RelyingParty.generateChallenge(byteCount: 32))
    }

    /// A new WebAuthn user handle: 32 random bytes.
    static func makeUserHandle() -> [UInt8] {
        RelyingParty.generateChallenge(byteCount: 32)
    }

    /// What the WebAuthn signal API needs about `user`: the RP ID, the user handle, the accepted credential IDs
    /// (`credentials`, or the stored ones) and the current names.
    func signals(for user: StoredUser, credentials: [StoredCredential]? = nil) async throws -> CredentialSignals {
        let accepted: [StoredCredential]
        if let credentials { accepted = credentials } else { accepted = try await store.credentials(ofUser: user.id) }
        return CredentialSignals(
            rpId: relyingParty.id, userId: Base64URL.encode(user.userHandle),
            allAcceptedCredentialIds: accepted.map { Base64URL.encode($0.id) }, name: user.name, displayName: user.displayName
        )
    }

    /// Stores a pending ceremony and returns its ticket.
    func storeCeremony(
        _ kind: CeremonyKind, challenge: [UInt8], userID: UUID?, state: some CeremonyState, now: Date
    ) async throws -> String {
        let ticket = Self.makeTicket()
        let payload = try state.payload()
        try await store.insertCeremony(StoredCeremony(
            id: ticket, kind: kind, challenge: Data(challenge), userID: userID, payload: payload, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(ceremonyLifetime.components.seconds))
        ))
        return ticket
    }

    /// Reads the pending ceremony named by `ticket` without consuming it, for a finish that consumes it in the same
    /// transaction as its outcome. Unknown or malformed: 404 `ceremony.notFound`; expired (or stored by an earlier
    /// version in another shape): removed, 410 `ceremony.expired`.
    func pendingCeremony<State: CeremonyState>(
        ticket: String, kind: CeremonyKind, as state: State.Type, now: Date
    ) async throws -> (StoredCeremony, State) {
        guard Self.isWellFormedTicket(ticket), let ceremony = try await store.ceremony(id: ticket, kind: kind) else {
            throw CeremonyError.notFound(kind)
        }
        guard ceremony.isLive(at: now) else {
            _ = try? await store.consumeCeremony(id: ticket, kind: kind, now: now)
            throw CeremonyError.expired(kind)
        }
        do {
            return (ceremony, try State(payload: ceremony.payload))
        } catch {
            // Stored by a version of the server that kept other state: it cannot be finished.
            _ = try? await store.consumeCeremony(id: ticket, kind: kind, now: now)
            throw CeremonyError.expired(kind)
        }
    }

    /// Consumes a ceremony whose finish failed, so its challenge cannot be tried again. Returns false when the ceremony
    /// was already gone: a concurrent finish of the same ceremony consumed it first.
    @discardableResult
    func discardCeremony(ticket: String, kind: CeremonyKind, now: Date) async -> Bool {
        do {
            _ = try await store.consumeCeremony(id: ticket, kind: kind, now: now)
            return true
        } catch {
            return error.code != .notFound
        }
    }

    /// Whether `ticket` could be one of ours: 1 to 128 characters of `A–Z a–z 0–9 - _`.
    static func isWellFormedTicket(_ ticket: String) -> Bool {
        (1...StoredCeremony.maximumIDLength).contains(ticket.utf8.count) && ASCIIText.consists(of: ticket, orAnyOf: "-_")
    }

    /// Runs `body` (a ceremony's verification and commit, after ``pendingCeremony(ticket:kind:as:now:)``), timing it
    /// and counting its outcome. When it fails the ceremony is consumed, so its challenge is never tried twice; if the
    /// ceremony was already gone, a concurrent finish committed while this one was verifying (and this one saw, say,
    /// the sign count that finish recorded): this attempt lost the race and says so (404 `ceremony.notFound`), not
    /// what its late check found.
    func burningOnFailure<Result>(
        ticket: String, kind: CeremonyKind, now: Date, _ body: () async throws -> Result
    ) async throws -> Result {
        let start = ContinuousClock.now
        do {
            let result = try await body()
            metrics.recordVerification(kind, duration: ContinuousClock.now - start)
            metrics.recordCeremony(kind, succeeded: true)
            return result
        } catch {
            metrics.recordCeremony(kind, succeeded: false)
            guard await discardCeremony(ticket: ticket, kind: kind, now: now) else { throw CeremonyError.notFound(kind) }
            throw error
        }
    }
}

/// A finished sign-in or sign-up: the user, and the new session with its token (none when a passkey was added
/// to a signed-in account).
struct CeremonyOutcome: Sendable {
    let user: StoredUser
    let credential: StoredCredential
    let session: StoredSession?
    let token: SessionToken?
    /// All the user's credentials when the ceremony read them anyway (a sign-in does), so its signals need no read
    /// of their own; nil otherwise.
    var accountCredentials: [StoredCredential]? = nil
}

extension StoredUser {
    /// The user as the API shows it.
    var profile: UserProfile { UserProfile(id: id.uuidString.lowercased(), name: name, displayName: displayName) }
}
