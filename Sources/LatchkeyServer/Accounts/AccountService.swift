import Foundation
import LatchkeyAPI
import LatchkeyStore

/// The signed-in account around its ceremonies: its ways in, signing out (this session or everywhere), deleting it,
/// and whether the store answers at all (the health check). Routes call this; this calls the store.
struct AccountService: Sendable {
    let store: any LatchkeyStore
    let apple: AppleSignInService?
    let audit: AuditLog

    /// The account's ways in: how many passkeys, whether a password, whether an Apple ID.
    func signInMethods(of userID: UUID) async throws -> SignInMethods {
        SignInMethods(
            passkeys: try await store.credentialCount(ofUser: userID),
            password: try await store.passwordHash(ofUser: userID) != nil,
            apple: !(try await store.appleLinks(ofUser: userID)).isEmpty
        )
    }

    /// Ends the caller's session.
    func signOut(_ caller: SignedIn) async throws {
        try await audit.recording([audit.event(.sessionEnded, user: caller.user.id, detail: caller.session.publicID)]) {
            () async throws(StoreError) in
            try await store.deleteSession(tokenHash: caller.session.tokenHash)
        }
    }

    /// Ends every session of the caller's account, the caller's too, and says which ways in remain: ending sessions
    /// removes none.
    func signOutEverywhere(_ caller: SignedIn) async throws -> SignInMethods {
        try await endSessions(of: caller.user.id)
        return try await signInMethods(of: caller.user.id)
    }

    /// Ends every session of the account `userID` (signing out everywhere, or an operator); returns how many.
    @discardableResult
    func endSessions(of userID: UUID) async throws -> Int {
        try await audit.recording([audit.event(.sessionsEnded, user: userID)]) { () async throws(StoreError) in
            try await store.deleteSessions(ofUser: userID)
        }
    }

    /// The account's live sessions (its devices), newest first, the caller's marked current.
    func sessions(of caller: SignedIn, now: Date = Date()) async throws -> SessionList {
        let sessions = try await store.sessions(ofUser: caller.user.id, now: now)
        return SessionList(
            sessions: sessions.map { Self.summary($0, current: $0.tokenHash == caller.session.tokenHash) })
    }

    /// `session` as the account's list of devices shows it; `current` when it is the caller's.
    static func summary(_ session: StoredSession, current: Bool) -> SessionSummary {
        SessionSummary(
            id: session.publicID, createdAt: session.createdAt, lastSeenAt: session.lastSeenAt,
            expiresAt: session.expiresAt, device: session.device, network: session.network, current: current)
    }

    /// Ends the account's session named `id` (``LatchkeyStore/StoredSession/publicID``) and says whether it was the
    /// caller's own; 404 `session.notFound` when the account has no live session by that name.
    func endSession(id: String, of caller: SignedIn, now: Date = Date()) async throws -> Bool {
        guard
            let session = try await store.sessions(ofUser: caller.user.id, now: now).first(where: { $0.publicID == id })
        else {
            throw ServiceError(.sessionNotFound, "the account has no live session with this id")
        }
        try await audit.recording([audit.event(.sessionEnded, user: caller.user.id, detail: session.publicID)]) {
            () async throws(StoreError) in
            try await store.deleteSession(tokenHash: session.tokenHash)
        }
        return session.tokenHash == caller.session.tokenHash
    }

    /// Deletes the account `userID` (the caller's own, or an operator's choice in the admin API) with its passkeys,
    /// sessions and Apple links, revoking its Apple authorizations at Apple first (App Store guideline 5.1.1(v)): when
    /// Apple cannot be reached, 502 `apple.revokeFailed` and the account stays, so the user can retry.
    func delete(userID: UUID) async throws {
        try await apple?.revokeAuthorizations(ofUser: userID)
        try await audit.recording([audit.event(.accountDeleted, user: userID)]) { () async throws(StoreError) in
            try await store.deleteUser(id: userID)
        }
    }

    /// Throws when the store does not answer: a look-up of a random id exercises the connection and the schema
    /// without touching data.
    func checkStore() async throws {
        _ = try await store.user(id: UUID())
    }
}
