import Crypto
import Foundation
import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import Logging
import WebAuthn

/// Password accounts: sign-up, sign-in (with the per-account throttle and a passkey upgrade), and setting,
/// changing and removing the password. Passwords are normalised (NFKC), checked (``PasswordRules``) and hashed
/// (``PasswordHasher``); the clear text is never stored or logged.
struct PasswordService: Sendable {
    let enabled: Bool
    let hasher: PasswordHasher
    let throttle: PasswordThrottlePolicy
    let ceremonies: CeremonyService
    let sessions: SessionAuthenticator
    /// The account's ways in, for the rule on a password that is the only one.
    let accounts: AccountService
    /// What an unknown account name is verified against (see ``PasswordHasher/dummyHash()``).
    let dummyHash: String

    init(
        enabled: Bool, parameters: ScryptParameters, concurrency: Int, throttle: PasswordThrottlePolicy,
        ceremonies: CeremonyService, sessions: SessionAuthenticator, accounts: AccountService
    ) {
        self.enabled = enabled
        self.hasher = PasswordHasher(parameters: parameters, concurrency: concurrency)
        self.throttle = throttle
        self.ceremonies = ceremonies
        self.sessions = sessions
        self.accounts = accounts
        self.dummyHash = hasher.dummyHash()
    }

    var store: any LatchkeyStore { ceremonies.store }
    var audit: AuditLog { ceremonies.audit }

    static let disabled = ServiceError(.passwordDisabled, "password sign-in is turned off on this server")
    /// The one answer to a wrong password and to an unknown account name alike.
    static let invalid = ServiceError(.passwordInvalid, "the username or password is wrong")

    func requireEnabled() throws {
        guard enabled else { throw Self.disabled }
    }

    /// The throttle key of an account name: the SHA-256 of its store key (NFC, lower-cased), so spellings of one
    /// name share a count, unknown names are throttled exactly like known ones, any name fits, and the table does
    /// not keep in clear what people typed as a user name (sometimes their password).
    static func throttleKey(_ name: String) -> String {
        let key = UsernameProfile.prepared(name).precomposedStringWithCanonicalMapping.lowercased()
        return "name-sha256:" + Base64URL.encode(Array(SHA256.hash(data: Data(key.utf8))))
    }

    // MARK: Sign-up and sign-in

    func register(
        _ body: PasswordRegisterRequest, client: SessionClient, now: Date = Date(),
        while stillWanted: @escaping @Sendable () -> Bool = { true }
    ) async throws -> Response {
        try requireEnabled()
        let (name, displayName) = try UserNames.validated(name: body.username, displayName: body.displayName)
        try PasswordRules.check(typed: body.password, username: name, isOnlyWayIn: true)
        let password = PasswordRules.normalized(body.password)
        try await UserNames.requireAvailable(name, in: store)
        let hash = try await hash(password, while: stillWanted)
        let user = StoredUser(
            userHandle: Data(CeremonyService.makeUserHandle()), name: name, displayName: displayName, createdAt: now
        )
        let (session, token) = sessions.issue(for: user.id, verified: true, client: client, now: now)
        do throws(StoreError) {
            try await audit.recording([
                audit.event(.accountCreated, user: user.id, detail: "password", now: now),
                audit.event(.passwordSet, user: user.id, now: now),
            ]) { () async throws(StoreError) in
                try await store.commitPasswordSignUp(user, passwordHash: hash, session: session)
            }
        } catch {
            // Taken meanwhile by a concurrent sign-up.
            throw error.meaning([.conflict: CeremonyError.nameTaken(name)])
        }
        return try await signedIn(user, session: session, token: token, status: .created, now: now)
    }

    func signIn(
        _ body: PasswordSignInRequest, client: SessionClient, now: Date = Date(),
        while stillWanted: @escaping @Sendable () -> Bool = { true }
    ) async throws -> Response {
        try requireEnabled()
        let key = Self.throttleKey(body.username)
        try await throttle.reserve(key: key, in: store, now: now, refusal: .passwordThrottled)
        let password = PasswordRules.normalized(body.password)
        var found: (user: StoredUser, hash: String)?
        // Longer than any password we accept: it cannot match, so the account is not even looked up.
        if PasswordRules.length(typed: body.password) <= PasswordRules.maximumLength,
            let user = try await store.user(named: UsernameProfile.prepared(body.username)),
            let hash = try await store.passwordHash(ofUser: user.id)
        {
            found = (user, hash)
        }
        let user: StoredUser
        do {
            user = try await verify(password: password, key: key, found: found, now: now, while: stillWanted)
        } catch {
            await audit.record(audit.event(.signInFailed, user: found?.user.id, detail: APIError(error).code, now: now))
            throw error
        }
        let (session, token) = sessions.issue(for: user.id, verified: true, client: client, now: now)
        try await audit.recording([audit.event(.signInSucceeded, user: user.id, detail: "password", now: now)]) {
            () async throws(StoreError) in
            try await store.createSession(session)
        }
        return try await signedIn(user, session: session, token: token, status: .ok, now: now)
    }

    /// Re-authenticates the caller with the account's password (``Reauthentication``): checked as a sign-in checks it,
    /// throttled under the same account key (429 `password.throttled`), 401 `password.invalid` also when the account has
    /// no password. A new verified session replaces the caller's.
    func reauthenticate(
        _ caller: SignedIn, password typed: String, client: SessionClient, now: Date = Date(),
        while stillWanted: @escaping @Sendable () -> Bool = { true }
    ) async throws -> Response {
        try requireEnabled()
        let key = Self.throttleKey(caller.user.name)
        try await throttle.reserve(key: key, in: store, now: now, refusal: .passwordThrottled)
        var found: (user: StoredUser, hash: String)?
        if PasswordRules.length(typed: typed) <= PasswordRules.maximumLength,
            let hash = try await store.passwordHash(ofUser: caller.user.id)
        {
            found = (caller.user, hash)
        }
        let user = try await verify(
            password: PasswordRules.normalized(typed), key: key, found: found, now: now, while: stillWanted)
        let (session, token) = sessions.issue(for: user.id, verified: true, client: client, now: now)
        try await audit.recording([audit.event(.signInSucceeded, user: user.id, detail: "password", now: now)]) {
            () async throws(StoreError) in
            try await store.createSession(session)
        }
        try await accounts.signOut(caller)
        return try await sessions.signedInResponse(user: user, session: session, token: token, methods: ["pwd"])
    }

    /// The session response, with the signals and — for an account without a passkey — a conditional
    /// registration ceremony (the automatic passkey upgrade).
    private func signedIn(
        _ user: StoredUser, session: StoredSession, token: SessionToken, status: HTTPResponse.Status, now: Date
    ) async throws -> Response {
        let credentials = try await store.credentials(ofUser: user.id)
        let upgrade =
            credentials.isEmpty
            ? try await ceremonies.beginRegistration(
                for: .existingUser(user), preferences: RegistrationPreferences(conditional: true), now: now) : nil
        let signals = try await ceremonies.signals(for: user, credentials: credentials)
        return try await sessions.signedInResponse(
            user: user, session: session, token: token, methods: ["pwd"], status: status, signals: signals,
            passkeyUpgrade: upgrade)
    }

    /// Checks `password` (normalised) against the account `found` with one scrypt verification — against the
    /// account's hash, or the dummy hash when there is no such account or it has no password, so both take the same
    /// time and answer the same 401 `password.invalid`. A success forgets `key`'s failures (the attempt reserved by
    /// ``PasswordThrottlePolicy/reserve(key:in:now:refusal:)`` among them) and rehashes a hash made with other parameters.
    private func verify(
        password: String, key: String, found: (user: StoredUser, hash: String)?, now: Date,
        while stillWanted: @escaping @Sendable () -> Bool
    ) async throws -> StoredUser {
        let matches: Bool
        do {
            matches = try await hasher.verify(password, against: found?.hash ?? dummyHash, while: stillWanted)
        } catch let refusal as PasswordHasher.Refusal {
            // The attempt taken for it stays counted: a refusal is not a way around the throttle.
            throw Self.error(refusal)
        }
        guard matches, let found else { throw Self.invalid }
        try await store.clearPasswordFailures(key: key)
        if hasher.needsRehash(found.hash) {
            let rehashed = try await hash(password, while: stillWanted)
            try await store.replacePasswordHash(ofUser: found.user.id, expected: found.hash, with: rehashed, now: now)
        }
        return found.user
    }

    /// A new hash, or the API error for a hash that did not run.
    private func hash(_ password: String, while stillWanted: @escaping @Sendable () -> Bool) async throws -> String {
        do {
            return try await hasher.hash(password, while: stillWanted)
        } catch let refusal as PasswordHasher.Refusal {
            throw Self.error(refusal)
        }
    }

    /// 503 `password.busy` (`Retry-After: 1`): every hashing slot is busy and the queue is full, or the client left.
    static func error(_ refusal: PasswordHasher.Refusal) -> ServiceError {
        ServiceError(
            .passwordBusy,
            refusal == .busy
                ? "too many password checks are waiting; try again shortly" : "the client left before its turn",
            retryAfter: 1)
    }

    // MARK: The signed-in account's password

    func setPassword(
        _ body: SetPasswordRequest, caller: SignedIn, now: Date = Date(),
        while stillWanted: @escaping @Sendable () -> Bool = { true }
    ) async throws {
        try requireEnabled()
        let user = caller.user
        if let current = try await store.passwordHash(ofUser: user.id) {
            guard let given = body.currentPassword, !given.isEmpty else {
                throw ServiceError(
                    .passwordCurrentRequired, "changing the password needs the current one (currentPassword)")
            }
            let key = Self.throttleKey(user.name)
            try await throttle.reserve(key: key, in: store, now: now, refusal: .passwordThrottled)
            _ = try await verify(
                password: PasswordRules.normalized(given), key: key, found: (user, current), now: now,
                while: stillWanted)
        }
        let methods = try await accounts.signInMethods(of: user.id)
        try PasswordRules.check(
            typed: body.newPassword, username: user.name, isOnlyWayIn: methods.passkeys == 0 && !methods.apple)
        let password = PasswordRules.normalized(body.newPassword)
        let hash = try await hash(password, while: stillWanted)
        try await audit.recording([
            audit.event(methods.password ? .passwordChanged : .passwordSet, user: user.id, now: now)
        ]) {
            () async throws(StoreError) in
            try await store.setPasswordHash(hash, ofUser: user.id, now: now)
        }
    }

    func removePassword(caller: SignedIn) async throws {
        try requireEnabled()
        do throws(StoreError) {
            try await audit.recording([audit.event(.passwordRemoved, user: caller.user.id)]) {
                () async throws(StoreError) in
                try await store.deletePassword(ofUser: caller.user.id, keepingAnotherWayIn: true)
            }
        } catch {
            throw error.meaning([
                .notFound: ServiceError(.passwordNotSet, "the account has no password"),
                .conflict: ServiceError(
                    .passwordLastWayIn,
                    "the password is the account's only way in; add a passkey first (or delete the account)"),
            ])
        }
    }
}
