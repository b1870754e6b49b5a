import Crypto
import Foundation
import LatchkeyAPI
import LatchkeyStore

/// The account's email addresses, and recovery by email. An address is added unverified and a six-digit code is sent
/// to it; the code (single use, ``codeLifetime``, kept as a SHA-256 that the address salts) verifies it. The first
/// verified address is primary: notices go there. A verified address belongs to one account. A verified address can
/// receive a recovery code (``sendRecoveryCode(to:now:)``), which opens the registration of a new passkey
/// (``RecoveryService``).
///
/// Sending is throttled per address and per account, and entering codes per account and per address, with the
/// password throttle's budget (five free, then 30 s doubling): `email.throttled`, `recovery.throttled`. Asking for a
/// recovery code answers the same whether or not the address is known, so it tells no one which addresses have
/// accounts.
struct EmailService: Sendable {
    let store: any LatchkeyStore
    /// Nil when no `--smtp-url` is set: every call then answers 404 `email.disabled`.
    let mailer: Mailer?
    let throttle: PasswordThrottlePolicy
    let audit: AuditLog
    var codeLifetime: TimeInterval = 600

    private var minutes: Int { Int(codeLifetime / 60) }

    func list(of caller: SignedIn) async throws -> EmailList {
        _ = try requireMailer()
        return EmailList(emails: try await store.emails(ofUser: caller.user.id).map(Self.summary))
    }

    /// Adds `address` to the caller's account and sends it a code.
    func add(_ typed: String, to caller: SignedIn, now: Date = Date()) async throws -> EmailAddress {
        let mailer = try requireMailer()
        let address = try Self.validated(typed)
        try await throttle.reserve(
            key: "email-send:" + StoredEmail.key(of: address), in: store, now: now, refusal: .emailThrottled,
            reason: "too many codes sent to this address")
        try await throttle.reserve(
            key: "email-send:\(caller.user.id)", in: store, now: now, refusal: .emailThrottled,
            reason: "too many codes sent for this account")
        let code = Self.makeCode()
        let added = try await audit.recording([
            audit.event(.emailAdded, user: caller.user.id, detail: address, now: now)
        ]) {
            () async throws(StoreError) in
            try await store.addEmail(
                address, toUser: caller.user.id, codeHash: Self.hash(code, address: address),
                codeExpiresAt: now.addingTimeInterval(codeLifetime), now: now)
        }
        switch added {
        case .added: break
        case .alreadyVerified:
            throw ServiceError(.emailAlreadyVerified, "this address is verified on your account already")
        case .tooMany:
            throw ServiceError(
                .emailLimit, "an account holds at most \(StoredEmail.maximumPerAccount) addresses; remove one first")
        }
        mailer.sendCode(.verificationCode, code: code, minutes: minutes, to: address)
        return EmailAddress(address: address, verified: false, primary: false, createdAt: now)
    }

    /// Verifies one of the caller's addresses with the code sent to it.
    func verify(_ typed: String, code: String, of caller: SignedIn, now: Date = Date()) async throws -> EmailAddress {
        let mailer = try requireMailer()
        let address = try Self.validated(typed)
        let key = "email-code:\(caller.user.id)"
        try await throttle.reserve(
            key: key, in: store, now: now, refusal: .emailThrottled, reason: "too many wrong codes for this account")
        let verified: Bool
        do {
            verified = try await audit.recording([
                audit.event(.emailVerified, user: caller.user.id, detail: address, now: now)
            ]) { () async throws(StoreError) in
                try await store.verifyEmail(
                    address, ofUser: caller.user.id, codeHash: Self.hash(Self.normalized(code), address: address),
                    now: now)
            }
        } catch {
            throw error.meaning([.conflict: ServiceError(.emailTaken, "another account has verified this address")])
        }
        guard verified else {
            throw ServiceError(.emailCodeInvalid, "the code is wrong or has expired (or the address was not added)")
        }
        try await store.clearPasswordFailures(key: key)
        let emails = try await store.emails(ofUser: caller.user.id)
        mailer.notify(.emailAdded, detail: address, user: caller.user.id)
        guard let stored = emails.first(where: { StoredEmail.key(of: $0.address) == StoredEmail.key(of: address) })
        else { throw ServiceError(.emailNotFound, "the address was removed meanwhile") }
        return Self.summary(stored)
    }

    /// Makes one of the caller's verified addresses the primary.
    func makePrimary(_ typed: String, of caller: SignedIn) async throws -> EmailList {
        _ = try requireMailer()
        let address = try Self.validated(typed)
        do {
            try await audit.recording([audit.event(.emailPrimary, user: caller.user.id, detail: address)]) {
                () async throws(StoreError) in
                try await store.makePrimaryEmail(address, ofUser: caller.user.id)
            }
        } catch {
            throw error.meaning([.notFound: ServiceError(.emailNotFound, "your account has no such verified address")])
        }
        return try await list(of: caller)
    }

    /// Removes one of the caller's addresses; the primary (if another remains) and the removed address are told.
    func remove(_ typed: String, of caller: SignedIn) async throws {
        let mailer = try requireMailer()
        let address = try Self.validated(typed)
        let wasVerified = try await store.emails(ofUser: caller.user.id).contains {
            StoredEmail.key(of: $0.address) == StoredEmail.key(of: address) && $0.verifiedAt != nil
        }
        do {
            try await audit.recording([audit.event(.emailRemoved, user: caller.user.id, detail: address)]) {
                () async throws(StoreError) in
                try await store.removeEmail(address, ofUser: caller.user.id)
            }
        } catch {
            throw error.meaning([.notFound: ServiceError(.emailNotFound, "your account has no such address")])
        }
        if wasVerified {
            mailer.notify(.emailRemoved, detail: address, user: caller.user.id, alsoTo: [address])
        }
    }

    /// Sends a recovery code to `typed` if an account has it verified; answers the same either way.
    func sendRecoveryCode(to typed: String, now: Date = Date()) async throws {
        let mailer = try requireMailer()
        let address = try Self.validated(typed)
        try await throttle.reserve(
            key: "email-send:" + StoredEmail.key(of: address), in: store, now: now, refusal: .emailThrottled,
            reason: "too many codes sent to this address")
        let code = Self.makeCode()
        // The same statement for a known address and an unknown one; only the send (in the background) differs.
        if let stored = try await store.setEmailRecoveryCode(
            address: address, codeHash: Self.hash(code, address: address),
            expiresAt: now.addingTimeInterval(codeLifetime))
        {
            mailer.sendCode(.recoveryCode, code: code, minutes: minutes, to: stored.address)
        }
    }

    /// Spends the recovery code sent to `typed`: the account, or 401 `recovery.invalid` (429 `recovery.throttled`
    /// after too many tries for the address).
    func recoveringUser(email typed: String, code: String, now: Date = Date()) async throws -> StoredUser {
        _ = try requireMailer()
        let address = (try? Self.validated(typed)) ?? typed
        let key = "recovery:email:" + StoredEmail.key(of: address)
        try await throttle.reserve(key: key, in: store, now: now, refusal: .recoveryThrottled)
        guard
            let userID = try await store.consumeEmailRecoveryCode(
                address: address, codeHash: Self.hash(Self.normalized(code), address: address), now: now),
            let user = try await store.user(id: userID)
        else {
            throw ServiceError(
                .recoveryInvalid, "the email address or the code is wrong (or the code was used or expired)")
        }
        try await store.clearPasswordFailures(key: key)
        return user
    }

    private func requireMailer() throws -> Mailer {
        guard let mailer else {
            throw ServiceError(.emailDisabled, "this server sends no email (no --smtp-url is set)")
        }
        return mailer
    }

    /// The address as typed, trimmed; 400 `email.invalid` unless it is one (``MailAddress``).
    static func validated(_ typed: String) throws -> String {
        let address = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try MailAddress.check(address)
        } catch {
            throw ServiceError(.emailInvalid, error.description)
        }
        return address
    }

    /// Six random digits.
    static func makeCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int(generator.next(upperBound: UInt32(1_000_000))))
    }

    /// A code as typed, without spaces and dashes.
    static func normalized(_ code: String) -> String {
        code.filter { $0 != " " && $0 != "-" }
    }

    /// What the store keeps of a code: SHA-256 over the address's key and the code, so equal codes for two addresses
    /// hash apart.
    static func hash(_ code: String, address: String) -> Data {
        Data(SHA256.hash(data: Data("latchkey email code\0\(StoredEmail.key(of: address))\0\(code)".utf8)))
    }

    static func summary(_ email: StoredEmail) -> EmailAddress {
        EmailAddress(
            address: email.address, verified: email.verifiedAt != nil, primary: email.isPrimary,
            createdAt: email.createdAt)
    }
}
