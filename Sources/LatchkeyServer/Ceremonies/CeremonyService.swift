import Foundation
import LatchkeyAPI
import LatchkeyStore
import Logging
import WebAuthn

/// Runs WebAuthn ceremonies against the store: begins them (makes options and seals the pending state in the ticket,
/// ``CeremonyTickets``) and finishes them (opens the ticket, verifies with ``WebAuthn/RelyingParty``, and commits the
/// outcome in one transaction that spends the ticket). Both API profiles use it; they differ only in their wire shapes.
///
/// A class, made once per server: the routes' closures hold it, and a struct this size (the relying party inside it
/// alone has a score of references) was copied, every reference retained and released, each time a route called it.
final class CeremonyService: Sendable {
    let store: any LatchkeyStore
    let relyingParty: RelyingParty
    /// Seals and opens the tickets that carry pending ceremonies.
    let tickets: CeremonyTickets
    let sessions: SessionAuthenticator
    let metrics: ServerMetrics
    /// Made-up `allowCredentials` for names no account has (or whose account has no passkey).
    let decoys: DecoyCredentials
    /// Records sign-ups, passkeys added, sign-ins and refused sign-ins.
    let audit: AuditLog
    /// Records what a ceremony accepted out of the ordinary (a changed backup-eligible flag).
    let logger: Logger

    init(
        store: any LatchkeyStore, relyingParty: RelyingParty, tickets: CeremonyTickets, sessions: SessionAuthenticator,
        metrics: ServerMetrics, decoys: DecoyCredentials, audit: AuditLog, logger: Logger
    ) {
        self.logger = logger
        self.audit = audit
        self.store = store
        self.relyingParty = relyingParty
        self.tickets = tickets
        self.sessions = sessions
        self.metrics = metrics
        self.decoys = decoys
    }

    /// 409 `user.nameTaken` (or `user.nameConfusable`) unless `name` is free for a new account.
    func requireAvailable(_ name: String) async throws {
        try await UserNames.requireAvailable(name, in: store)
    }

    /// Whom a registration by name is for (the conformance profile's rule): a new account when no account has the
    /// name (and none looks like it), the existing one only when `caller` is signed in to it; 409 `user.nameTaken`
    /// otherwise.
    func registrationSubject(
        name: String, displayName: String, caller: () async throws -> SignedIn?
    ) async throws -> RegistrationSubject {
        if let existing = try await store.user(named: name) {
            guard let signedIn = try await caller(), signedIn.user.id == existing.id else {
                throw CeremonyError.nameTaken(name, addPasskeyHint: true)
            }
            return .existingUser(existing)
        }
        try await UserNames.requireNotConfusable(name, in: store)
        return .newUser(name: name, displayName: displayName)
    }

    /// How long a ceremony can be finished after it begins.
    var ceremonyLifetime: Duration { tickets.lifetime }

    /// A new WebAuthn user handle: 32 random bytes.
    static func makeUserHandle() -> [UInt8] {
        RelyingParty.generateChallenge(byteCount: 32)
    }

    /// What the WebAuthn signal API needs about `user`: the RP ID, the user handle, the accepted credential IDs
    /// (`credentials`, or the stored ones) and the current names.
    func signals(for user: StoredUser, credentials: [StoredCredential]? = nil) async throws -> CredentialSignals {
        let accepted = if let credentials { credentials } else { try await store.credentials(ofUser: user.id) }
        return CredentialSignals(
            rpId: relyingParty.id, userId: Base64URL.encode(user.userHandle),
            allAcceptedCredentialIds: accepted.map { Base64URL.encode($0.id) }, name: user.name,
            displayName: user.displayName
        )
    }

    /// Spends the ticket of a finish that failed, so its challenge cannot be tried again. Returns false when the ticket
    /// was spent already: a concurrent finish of the same ceremony spent it first. (When the store cannot be reached the
    /// ticket stays unspent until it expires, as a stored ceremony stayed pending.)
    @discardableResult
    func spend(_ ticket: SpentTicket) async -> Bool {
        (try? await store.spendTicket(ticket)) ?? true
    }

    /// Runs `body` (a ceremony's verification and commit, after ``CeremonyTickets/open(_:kind:as:now:)``), timing it and
    /// counting its outcome. When it fails the ticket is spent, so its challenge is never tried twice; if the ticket
    /// was spent already, a concurrent finish committed while this one was verifying (and this one saw, say, the sign
    /// count that finish recorded), or an earlier finish failed: this attempt lost and says so (404
    /// `ceremony.notFound`), not what its late check found.
    func burningOnFailure<Result>(
        ticket: SpentTicket, kind: CeremonyKind, _ body: () async throws -> Result
    ) async throws -> Result {
        let start = ContinuousClock.now
        do {
            let result = try await body()
            metrics.recordVerification(kind, duration: ContinuousClock.now - start)
            metrics.recordCeremony(kind, succeeded: true)
            return result
        } catch {
            metrics.recordCeremony(kind, succeeded: false)
            guard await spend(ticket) else { throw CeremonyError.notFound(kind) }
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
