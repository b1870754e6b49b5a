import Foundation
import LatchkeyStore
import Synchronization

/// A store that forwards to a real one (a SQLite file in the tests) and fails the calls a test names, with the store
/// error it names, before they reach the database: so the server's 503 and 409 answers, and what it does after them,
/// are tested in-process; it can also hold a call up before it goes through (a slow migration, say). It forwards every
/// requirement of the store protocols; a call with no fault set goes through.
public final class FaultInjectingStore: LatchkeyStore {
    /// A store call, by its name.
    public enum Call: String, Sendable, Hashable, CaseIterable {
        case account
        case userIDVerifiedEmail
        case signingKeys
        case insertSigningKey
        case deleteSigningKeys
        case recordAuditEvents
        case auditEvents
        case purgeAuditEvents
        case claimWebhookDeliveries
        case finishWebhookDelivery
        case webhookStatus
        case spendRefreshToken
        case emails
        case addEmail
        case verifyEmail
        case setEmailRecoveryCode
        case consumeEmailRecoveryCode
        case removeEmail
        case makePrimaryEmail
        case enqueueMail
        case claimMail
        case deleteMail
        case rescheduleMail
        case addCredential
        case appleLink
        case appleLinks
        case appleNotificationSeen
        case clearPasswordFailures
        case commitAppleLink
        case commitAuthentication
        case commitPasswordSignUp
        case commitRegistration
        case consumeAppleWebState
        case createSession
        case createUser
        case credential
        case credentials
        case deleteCredential
        case deletePassword
        case deleteSession
        case replaceRecoveryCodes
        case recoveryCodeCount
        case consumeRecoveryCode
        case insertRecoveryLink
        case consumeRecoveryLink
        case purgeExpiredRecoveryLinks
        case markSessionSeen
        case sessions
        case deleteSessions
        case deleteUser
        case endAppleLink
        case insertAppleNonce
        case insertAppleWebState
        case migrate
        case passwordHash
        case passwordThrottle
        case purgeExpiredAppleRecords
        case purgeExpiredSessions
        case purgePasswordThrottles
        case purgeSpentTickets
        case recordAppleNotification
        case recordAppleSignIn
        case recordAppleTokenUse
        case renameCredential
        case replacePasswordHash
        case reservePasswordAttempt
        case revokeAppleConsent
        case serverSecret
        case session
        case setAppleEmailEnabled
        case setPasswordHash
        case spendTicket
        case user
    }

    public let base: any LatchkeyStore
    private let faults = Mutex<[Call: (error: StoreError, remaining: Int)]>([:])
    private let counts = Mutex<[Call: Int]>([:])
    private let delays = Mutex<[Call: Duration]>([:])

    public init(_ base: any LatchkeyStore) {
        self.base = base
    }

    /// Makes the next `times` calls of `call` fail with `error` (every call while `times` is nil).
    public func fail(_ call: Call, with error: StoreError, times: Int? = nil) {
        faults.withLock { $0[call] = (error, times ?? .max) }
    }

    /// Holds every call of `call` up for `duration` before it goes on.
    public func delay(_ call: Call, by duration: Duration) {
        delays.withLock { $0[call] = duration }
    }

    /// Lets every call through again.
    public func heal() {
        faults.withLock { $0.removeAll() }
        delays.withLock { $0.removeAll() }
    }

    /// How many times `call` was made (failed or not).
    public func count(_ call: Call) -> Int {
        counts.withLock { $0[call] ?? 0 }
    }

    private func fault(_ call: Call) async throws(StoreError) {
        counts.withLock { $0[call, default: 0] += 1 }
        if let delay = delays.withLock({ $0[call] }) { try? await Task.sleep(for: delay) }
        let error: StoreError? = faults.withLock { faults in
            guard let fault = faults[call], fault.remaining > 0 else { return nil }
            faults[call] = (fault.error, fault.remaining - 1)
            return fault.error
        }
        if let error { throw error }
    }

    public func run() async throws {
        try await base.run()
    }

    public func migrate() async throws(StoreError) {
        try await fault(.migrate)
        try await base.migrate()
    }

    public func createUser(_ user: StoredUser) async throws(StoreError) {
        try await fault(.createUser)
        try await base.createUser(user)
    }

    public func user(id: UUID) async throws(StoreError) -> StoredUser? {
        try await fault(.user)
        return try await base.user(id: id)
    }

    public func user(handle: Data) async throws(StoreError) -> StoredUser? {
        try await fault(.user)
        return try await base.user(handle: handle)
    }

    public func user(named name: String) async throws(StoreError) -> StoredUser? {
        try await fault(.user)
        return try await base.user(named: name)
    }

    public func user(confusableWith name: String) async throws(StoreError) -> StoredUser? {
        try await fault(.user)
        return try await base.user(confusableWith: name)
    }

    public func deleteUser(id: UUID) async throws(StoreError) {
        try await fault(.deleteUser)
        try await base.deleteUser(id: id)
    }

    public func addCredential(_ credential: StoredCredential) async throws(StoreError) {
        try await fault(.addCredential)
        try await base.addCredential(credential)
    }

    public func credential(id: Data) async throws(StoreError) -> StoredCredential? {
        try await fault(.credential)
        return try await base.credential(id: id)
    }

    public func account(named name: String) async throws(StoreError) -> StoredAccount? {
        try await fault(.account)
        return try await base.account(named: name)
    }

    public func account(ofCredential id: Data) async throws(StoreError) -> StoredAccount? {
        try await fault(.account)
        return try await base.account(ofCredential: id)
    }

    public func credentials(ofUser userID: UUID) async throws(StoreError) -> [StoredCredential] {
        try await fault(.credentials)
        return try await base.credentials(ofUser: userID)
    }

    public func renameCredential(id: Data, ofUser userID: UUID, to label: String?) async throws(StoreError) {
        try await fault(.renameCredential)
        try await base.renameCredential(id: id, ofUser: userID, to: label)
    }

    public func deleteCredential(id: Data, ofUser userID: UUID, keepingAnotherWayIn: Bool, sparingSession: Data?)
        async throws(StoreError)
    {
        try await fault(.deleteCredential)
        try await base.deleteCredential(
            id: id, ofUser: userID, keepingAnotherWayIn: keepingAnotherWayIn, sparingSession: sparingSession)
    }

    public func spendTicket(_ ticket: SpentTicket) async throws(StoreError) -> Bool {
        try await fault(.spendTicket)
        return try await base.spendTicket(ticket)
    }

    public func purgeSpentTickets(now: Date) async throws(StoreError) -> Int {
        try await fault(.purgeSpentTickets)
        return try await base.purgeSpentTickets(now: now)
    }

    public func createSession(_ session: StoredSession) async throws(StoreError) {
        try await fault(.createSession)
        try await base.createSession(session)
    }

    public func session(tokenHash: Data, now: Date) async throws(StoreError) -> StoredSession? {
        try await fault(.session)
        return try await base.session(tokenHash: tokenHash, now: now)
    }

    public func replaceRecoveryCodes(ofUser userID: UUID, hashes: [Data], now: Date) async throws(StoreError) {
        try await fault(.replaceRecoveryCodes)
        try await base.replaceRecoveryCodes(ofUser: userID, hashes: hashes, now: now)
    }

    public func recoveryCodeCount(ofUser userID: UUID) async throws(StoreError) -> Int {
        try await fault(.recoveryCodeCount)
        return try await base.recoveryCodeCount(ofUser: userID)
    }

    public func consumeRecoveryCode(ofUser userID: UUID, hash: Data) async throws(StoreError) -> Bool {
        try await fault(.consumeRecoveryCode)
        return try await base.consumeRecoveryCode(ofUser: userID, hash: hash)
    }

    public func insertRecoveryLink(tokenHash: Data, ofUser userID: UUID, expiresAt: Date) async throws(StoreError) {
        try await fault(.insertRecoveryLink)
        try await base.insertRecoveryLink(tokenHash: tokenHash, ofUser: userID, expiresAt: expiresAt)
    }

    public func consumeRecoveryLink(tokenHash: Data, now: Date) async throws(StoreError) -> UUID? {
        try await fault(.consumeRecoveryLink)
        return try await base.consumeRecoveryLink(tokenHash: tokenHash, now: now)
    }

    public func purgeExpiredRecoveryLinks(now: Date) async throws(StoreError) -> Int {
        try await fault(.purgeExpiredRecoveryLinks)
        return try await base.purgeExpiredRecoveryLinks(now: now)
    }

    public func sessions(ofUser userID: UUID, now: Date) async throws(StoreError) -> [StoredSession] {
        try await fault(.sessions)
        return try await base.sessions(ofUser: userID, now: now)
    }

    public func markSessionSeen(tokenHash: Data, at time: Date) async throws(StoreError) {
        try await fault(.markSessionSeen)
        try await base.markSessionSeen(tokenHash: tokenHash, at: time)
    }

    public func deleteSession(tokenHash: Data) async throws(StoreError) {
        try await fault(.deleteSession)
        try await base.deleteSession(tokenHash: tokenHash)
    }

    public func deleteSessions(ofUser userID: UUID) async throws(StoreError) -> Int {
        try await fault(.deleteSessions)
        return try await base.deleteSessions(ofUser: userID)
    }

    public func purgeExpiredSessions(now: Date) async throws(StoreError) -> Int {
        try await fault(.purgeExpiredSessions)
        return try await base.purgeExpiredSessions(now: now)
    }

    public func commitRegistration(_ credential: StoredCredential, creating user: StoredUser?, session: StoredSession?)
        async throws(StoreError)
    {
        try await fault(.commitRegistration)
        try await base.commitRegistration(credential, creating: user, session: session)
    }

    public func commitRegistration(
        spending ticket: SpentTicket, _ credential: StoredCredential, creating user: StoredUser?,
        session: StoredSession?
    ) async throws(StoreError) -> Bool {
        try await fault(.commitRegistration)
        return try await base.commitRegistration(spending: ticket, credential, creating: user, session: session)
    }

    public func commitAuthentication(
        spending ticket: SpentTicket, credentialID: Data, newSignCount: UInt32, backupEligible: Bool, backedUp: Bool,
        usedAt: Date,
        session: StoredSession?, previousSignCount: UInt32
    ) async throws(StoreError) -> Bool {
        try await fault(.commitAuthentication)
        return try await base.commitAuthentication(
            spending: ticket, credentialID: credentialID, newSignCount: newSignCount, backupEligible: backupEligible,
            backedUp: backedUp,
            usedAt: usedAt, session: session, previousSignCount: previousSignCount)
    }

    public func passwordHash(ofUser userID: UUID) async throws(StoreError) -> String? {
        try await fault(.passwordHash)
        return try await base.passwordHash(ofUser: userID)
    }

    public func commitPasswordSignUp(_ user: StoredUser, passwordHash: String, session: StoredSession)
        async throws(StoreError)
    {
        try await fault(.commitPasswordSignUp)
        try await base.commitPasswordSignUp(user, passwordHash: passwordHash, session: session)
    }

    public func setPasswordHash(_ hash: String, ofUser userID: UUID, now: Date) async throws(StoreError) {
        try await fault(.setPasswordHash)
        try await base.setPasswordHash(hash, ofUser: userID, now: now)
    }

    public func replacePasswordHash(ofUser userID: UUID, expected: String, with hash: String, now: Date)
        async throws(StoreError) -> Bool
    {
        try await fault(.replacePasswordHash)
        return try await base.replacePasswordHash(ofUser: userID, expected: expected, with: hash, now: now)
    }

    public func deletePassword(ofUser userID: UUID, keepingAnotherWayIn: Bool) async throws(StoreError) {
        try await fault(.deletePassword)
        try await base.deletePassword(ofUser: userID, keepingAnotherWayIn: keepingAnotherWayIn)
    }

    public func passwordThrottle(key: String) async throws(StoreError) -> PasswordThrottle? {
        try await fault(.passwordThrottle)
        return try await base.passwordThrottle(key: key)
    }

    public func reservePasswordAttempt(key: String, now: Date, delay: @escaping @Sendable (Int) -> TimeInterval)
        async throws(StoreError) -> PasswordThrottle?
    {
        try await fault(.reservePasswordAttempt)
        return try await base.reservePasswordAttempt(key: key, now: now, delay: delay)
    }

    public func clearPasswordFailures(key: String) async throws(StoreError) {
        try await fault(.clearPasswordFailures)
        try await base.clearPasswordFailures(key: key)
    }

    public func purgePasswordThrottles(lastFailureBefore cutoff: Date) async throws(StoreError) -> Int {
        try await fault(.purgePasswordThrottles)
        return try await base.purgePasswordThrottles(lastFailureBefore: cutoff)
    }

    public func appleLink(subject: String) async throws(StoreError) -> StoredAppleLink? {
        try await fault(.appleLink)
        return try await base.appleLink(subject: subject)
    }

    public func appleLinks(ofUser userID: UUID) async throws(StoreError) -> [StoredAppleLink] {
        try await fault(.appleLinks)
        return try await base.appleLinks(ofUser: userID)
    }

    public func commitAppleLink(_ link: StoredAppleLink, creating user: StoredUser?, session: StoredSession?)
        async throws(StoreError)
    {
        try await fault(.commitAppleLink)
        try await base.commitAppleLink(link, creating: user, session: session)
    }

    public func recordAppleSignIn(subject: String, sealedRefreshToken: Data?, clientID: String, session: StoredSession)
        async throws(StoreError) -> StoredAppleLink
    {
        try await fault(.recordAppleSignIn)
        return try await base.recordAppleSignIn(
            subject: subject, sealedRefreshToken: sealedRefreshToken, clientID: clientID, session: session)
    }

    public func endAppleLink(subject: String, deletingUserWithoutOtherWayIn: Bool) async throws(StoreError)
        -> EndedAppleLink?
    {
        try await fault(.endAppleLink)
        return try await base.endAppleLink(
            subject: subject, deletingUserWithoutOtherWayIn: deletingUserWithoutOtherWayIn)
    }

    public func revokeAppleConsent(subject: String, now: Date) async throws(StoreError) -> Int? {
        try await fault(.revokeAppleConsent)
        return try await base.revokeAppleConsent(subject: subject, now: now)
    }

    public func setAppleEmailEnabled(subject: String, enabled: Bool) async throws(StoreError) -> Bool {
        try await fault(.setAppleEmailEnabled)
        return try await base.setAppleEmailEnabled(subject: subject, enabled: enabled)
    }

    public func appleNotificationSeen(id: String) async throws(StoreError) -> Bool {
        try await fault(.appleNotificationSeen)
        return try await base.appleNotificationSeen(id: id)
    }

    public func recordAppleNotification(id: String, expiresAt: Date) async throws(StoreError) -> Bool {
        try await fault(.recordAppleNotification)
        return try await base.recordAppleNotification(id: id, expiresAt: expiresAt)
    }

    public func insertAppleWebState(_ state: StoredAppleWebState) async throws(StoreError) {
        try await fault(.insertAppleWebState)
        try await base.insertAppleWebState(state)
    }

    public func consumeAppleWebState(_ state: String, now: Date) async throws(StoreError) -> StoredAppleWebState {
        try await fault(.consumeAppleWebState)
        return try await base.consumeAppleWebState(state, now: now)
    }

    public func insertAppleNonce(_ nonce: StoredAppleNonce) async throws(StoreError) {
        try await fault(.insertAppleNonce)
        try await base.insertAppleNonce(nonce)
    }

    public func recordAppleTokenUse(
        subject: String, nonceHash: String, expiresAt: Date, consumingNonce nonce: String?, now: Date
    ) async throws(StoreError) {
        try await fault(.recordAppleTokenUse)
        try await base.recordAppleTokenUse(
            subject: subject, nonceHash: nonceHash, expiresAt: expiresAt, consumingNonce: nonce, now: now)
    }

    public func purgeExpiredAppleRecords(now: Date) async throws(StoreError) -> Int {
        try await fault(.purgeExpiredAppleRecords)
        return try await base.purgeExpiredAppleRecords(now: now)
    }

    public func serverSecret(named name: String, candidate: Data) async throws(StoreError) -> Data {
        try await fault(.serverSecret)
        return try await base.serverSecret(named: name, candidate: candidate)
    }

    // MARK: Email

    public func emails(ofUser userID: UUID) async throws(StoreError) -> [StoredEmail] {
        try await fault(.emails)
        return try await base.emails(ofUser: userID)
    }

    public func addEmail(_ address: String, toUser userID: UUID, codeHash: Data, codeExpiresAt: Date, now: Date)
        async throws(StoreError) -> StoredEmail.Addition
    {
        try await fault(.addEmail)
        return try await base.addEmail(
            address, toUser: userID, codeHash: codeHash, codeExpiresAt: codeExpiresAt, now: now)
    }

    public func verifyEmail(_ address: String, ofUser userID: UUID, codeHash: Data, now: Date)
        async throws(StoreError) -> Bool
    {
        try await fault(.verifyEmail)
        return try await base.verifyEmail(address, ofUser: userID, codeHash: codeHash, now: now)
    }

    public func userID(verifiedEmail address: String) async throws(StoreError) -> UUID? {
        try await fault(.userIDVerifiedEmail)
        return try await base.userID(verifiedEmail: address)
    }

    public func setEmailRecoveryCode(address: String, codeHash: Data, expiresAt: Date) async throws(StoreError)
        -> StoredEmail?
    {
        try await fault(.setEmailRecoveryCode)
        return try await base.setEmailRecoveryCode(address: address, codeHash: codeHash, expiresAt: expiresAt)
    }

    public func consumeEmailRecoveryCode(address: String, codeHash: Data, now: Date) async throws(StoreError) -> UUID? {
        try await fault(.consumeEmailRecoveryCode)
        return try await base.consumeEmailRecoveryCode(address: address, codeHash: codeHash, now: now)
    }

    public func removeEmail(_ address: String, ofUser userID: UUID) async throws(StoreError) {
        try await fault(.removeEmail)
        try await base.removeEmail(address, ofUser: userID)
    }

    public func makePrimaryEmail(_ address: String, ofUser userID: UUID) async throws(StoreError) {
        try await fault(.makePrimaryEmail)
        try await base.makePrimaryEmail(address, ofUser: userID)
    }

    public func enqueueMail(_ mail: StoredMail, limit: Int) async throws(StoreError) -> Bool {
        try await fault(.enqueueMail)
        return try await base.enqueueMail(mail, limit: limit)
    }

    public func claimMail(now: Date, lease: TimeInterval, limit: Int) async throws(StoreError) -> [StoredMail] {
        try await fault(.claimMail)
        return try await base.claimMail(now: now, lease: lease, limit: limit)
    }

    public func deleteMail(id: UUID) async throws(StoreError) {
        try await fault(.deleteMail)
        try await base.deleteMail(id: id)
    }

    public func rescheduleMail(id: UUID, at time: Date) async throws(StoreError) {
        try await fault(.rescheduleMail)
        try await base.rescheduleMail(id: id, at: time)
    }

    // MARK: Tokens

    public func signingKeys() async throws(StoreError) -> [StoredSigningKey] {
        try await fault(.signingKeys)
        return try await base.signingKeys()
    }

    public func insertSigningKey(_ key: StoredSigningKey) async throws(StoreError) -> Bool {
        try await fault(.insertSigningKey)
        return try await base.insertSigningKey(key)
    }

    public func deleteSigningKeys(before generation: Int) async throws(StoreError) {
        try await fault(.deleteSigningKeys)
        try await base.deleteSigningKeys(before: generation)
    }

    public func spendRefreshToken(session sessionTokenHash: Data, generation: Int, now: Date) async throws(StoreError)
        -> RefreshTokenSpending
    {
        try await fault(.spendRefreshToken)
        return try await base.spendRefreshToken(session: sessionTokenHash, generation: generation, now: now)
    }

    public func recordAuditEvents(_ events: [AuditEvent]) async throws(StoreError) {
        try await fault(.recordAuditEvents)
        try await base.recordAuditEvents(events)
    }

    public func auditEvents(_ query: AuditQuery) async throws(StoreError) -> [StoredAuditEvent] {
        try await fault(.auditEvents)
        return try await base.auditEvents(query)
    }

    public func purgeAuditEvents(occurredBefore cutoff: Date) async throws(StoreError) -> Int {
        try await fault(.purgeAuditEvents)
        return try await base.purgeAuditEvents(occurredBefore: cutoff)
    }

    public func claimWebhookDeliveries(now: Date, leaseUntil: Date, limit: Int) async throws(StoreError)
        -> [StoredWebhookDelivery]
    {
        try await fault(.claimWebhookDeliveries)
        return try await base.claimWebhookDeliveries(now: now, leaseUntil: leaseUntil, limit: limit)
    }

    public func finishWebhookDelivery(id: Int64, _ outcome: WebhookOutcome, at time: Date) async throws(StoreError) {
        try await fault(.finishWebhookDelivery)
        try await base.finishWebhookDelivery(id: id, outcome, at: time)
    }

    public func webhookStatus() async throws(StoreError) -> [WebhookEndpointStatus] {
        try await fault(.webhookStatus)
        return try await base.webhookStatus()
    }
}
