import Crypto
import Foundation
import LatchkeyAPI
import LatchkeyStore
import WebAuthn

/// Recovery codes: the way back to a new passkey for a user who lost theirs. A set of ``codeCount`` codes is made on
/// request (after a recent re-authentication), shown once and stored as SHA-256 hashes (each code carries 80 random
/// bits, so a hash does not give it away); making a new set revokes the old. A code opens a registration ceremony for the
/// account — its only use — whose finish adds the passkey and signs in; the code is spent when the ceremony begins.
/// Attempts are throttled per account name as passwords are (429 `recovery.throttled`), and a wrong code answers exactly
/// as an unknown name does (401 `recovery.invalid`).
struct RecoveryService: Sendable {
    let store: any LatchkeyStore
    let ceremonies: CeremonyService
    let throttle: PasswordThrottlePolicy
    /// For recovery with a code sent to a verified address.
    let emails: EmailService
    var audit: AuditLog { ceremonies.audit }

    /// How many codes a set has.
    static let codeCount = 10
    /// Crockford's base32: no I, L, O or U to misread.
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// Makes a new set for the caller's account, replacing the old; the codes are in the answer only.
    func generateCodes(for caller: SignedIn, now: Date = Date()) async throws -> RecoveryCodes {
        let codes = (0..<Self.codeCount).map { _ in Self.makeCode() }
        try await audit.recording([audit.event(.recoveryCodesGenerated, user: caller.user.id, now: now)]) {
            () async throws(StoreError) in
            try await store.replaceRecoveryCodes(ofUser: caller.user.id, hashes: codes.map(Self.hash), now: now)
        }
        return RecoveryCodes(codes: codes)
    }

    /// How many of the caller's codes are left.
    func status(of caller: SignedIn) async throws -> RecoveryCodeStatus {
        RecoveryCodeStatus(remaining: try await store.recoveryCodeCount(ofUser: caller.user.id))
    }

    /// Spends `code` of the account named `username` and begins the registration of its new passkey.
    func beginRecovery(username: String, code: String, now: Date = Date()) async throws -> RegistrationOptionsResponse {
        let key = "recovery:" + PasswordService.throttleKey(username)
        try await throttle.reserve(key: key, in: store, now: now, refusal: .recoveryThrottled)
        let user = try await store.user(named: UsernameProfile.prepared(username))
        // The same statement for an unknown name or a code that cannot be one, so neither answers sooner.
        let hash = Self.normalized(code).map(Self.hash) ?? Data(SHA256.hash(data: Data(UUID().uuidString.utf8)))
        let spent = try await audit.recording(
            user.map { [audit.event(.recoveryStarted, user: $0.id, detail: "code", now: now)] } ?? []
        ) { () async throws(StoreError) in
            try await store.consumeRecoveryCode(ofUser: user?.id ?? UUID(), hash: hash)
        }
        guard spent, let user else {
            throw ServiceError(.recoveryInvalid, "the username or the recovery code is wrong (or the code was used)")
        }
        try await store.clearPasswordFailures(key: key)
        return try await ceremonies.beginRegistration(for: .recoveringUser(user), now: now)
    }

    /// Spends the code sent to the verified address `email` and begins the registration of its account's new passkey.
    func beginRecovery(email: String, code: String, now: Date = Date()) async throws -> RegistrationOptionsResponse {
        let user = try await emails.recoveringUser(email: email, code: code, now: now)
        // The account is known only once the code is spent: the event follows in a transaction of its own.
        await audit.record(audit.event(.recoveryStarted, user: user.id, detail: "email", now: now))
        return try await ceremonies.beginRegistration(for: .recoveringUser(user), now: now)
    }

    /// Spends the recovery link whose token is `token` and begins the registration of its account's new passkey; a
    /// used, expired or unknown token is 401 `recovery.invalid`.
    func beginRecovery(token: String, now: Date = Date()) async throws -> RegistrationOptionsResponse {
        guard let bytes = Base64URL.decode(token), bytes.count == RecoveryLinks.tokenLength,
            let userID = try await store.consumeRecoveryLink(tokenHash: Data(SHA256.hash(data: bytes)), now: now),
            let user = try await store.user(id: userID)
        else {
            throw ServiceError(
                .recoveryInvalid, "the recovery link is not valid: it was used, has expired or was changed")
        }
        await audit.record(audit.event(.recoveryStarted, user: user.id, detail: "link", now: now))
        return try await ceremonies.beginRegistration(for: .recoveringUser(user), now: now)
    }

    /// A new code: 16 characters of Crockford base32 (80 random bits), in groups of four.
    static func makeCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<16).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }
        return stride(from: 0, to: 16, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// A code as typed, reduced to its 16 characters: case, dashes and spaces ignored, and the letters Crockford's
    /// base32 reads as digits (O, I, L) read so; nil when it cannot be a code.
    static func normalized(_ typed: String) -> String? {
        var characters: [Character] = []
        for character in typed.uppercased() where character != "-" && character != " " {
            let read: Character =
                switch character {
                case "O": "0"
                case "I", "L": "1"
                default: character
                }
            guard alphabet.contains(read) else { return nil }
            characters.append(read)
        }
        guard characters.count == 16 else { return nil }
        return String(characters)
    }

    /// What the store keeps of a code: the SHA-256 of its normalised form.
    static func hash(_ code: String) -> Data {
        Data(SHA256.hash(data: Data((normalized(code) ?? code).utf8)))
    }
}
