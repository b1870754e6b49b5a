import AppleSignIn
import Foundation
import LatchkeyAPI
import LatchkeyStore
import Logging
import WebAuthn

/// Signs people in with Apple: verifies the identity token, exchanges the authorization code with the right client,
/// seals the refresh token, and finds, creates or links the user by Apple `sub`, issuing a session in the same
/// transaction. Also revokes a user's Apple authorizations (account deletion).
struct AppleSignInService: Sendable {
    let configuration: AppleConfiguration
    let store: any LatchkeyStore
    let sessions: SessionAuthenticator
    let identities: AppleIdentityTokenVerifier
    let notifications: AppleNotificationVerifier
    let tokens: AppleTokenClient
    let logger: Logger
    let audit: AuditLog
    /// Nonces issued by this instance, whoever asks: the per-address limit alone let many addresses fill the
    /// `apple_nonces` table. ``maximumNoncesPerMinute`` a minute (bursts as large); each lives 10 minutes, so the
    /// table holds at most ten times that per instance.
    let nonceIssuance: TokenBucketLimiter

    /// How many nonces an instance issues a minute at most.
    static let maximumNoncesPerMinute = 6_000

    /// The clock skew tolerated on identity tokens' `exp` and `iat`.
    static let clockLeeway: TimeInterval = 60

    init(
        configuration: AppleConfiguration, store: any LatchkeyStore, sessions: SessionAuthenticator,
        audit: AuditLog, logger: Logger
    ) {
        self.audit = audit
        let keys = AppleKeyCache(source: AppleKeysEndpoint(endpoints: configuration.endpoints))
        let rules = AppleClaimRules(clientIDs: configuration.clientIDs, leeway: Self.clockLeeway)
        self.configuration = configuration
        self.store = store
        self.sessions = sessions
        self.identities = AppleIdentityTokenVerifier(keys: keys, rules: rules)
        self.notifications = AppleNotificationVerifier(keys: keys, rules: rules)
        self.tokens = AppleTokenClient(
            endpoints: configuration.endpoints, secrets: AppleClientSecretCache(signer: configuration.signer))
        self.logger = logger
        self.nonceIssuance = TokenBucketLimiter(perMinute: Self.maximumNoncesPerMinute, maximumClients: 1)
    }

    /// One sign-in with Apple, from an app (``AppleRoutes`` `/v1/apple/signin`) or the web callback.
    struct Attempt: Sendable {
        var identityToken: String
        var rawNonce: String
        var authorizationCode: String?
        /// The name Apple hands the app (or the web page) on the first sign-in only.
        var givenName: String?
        var familyName: String?
        /// The email the app was given, when the token carries none.
        var email: String?
        /// The user to link the Apple ID to: the signed-in caller, or whoever started the web flow.
        var linkingUserID: UUID?
        /// The client the new session records.
        var client: SessionClient
        /// The client ID the app says it is; the token must be for it.
        var expectedClientID: String?
        /// Whether the token must be for the web flow's Services ID.
        var requireWebClient = false
        /// Whether `rawNonce` must be a nonce this server issued (`POST /v1/apple/nonce`), consumed by this sign-in.
        /// The web flow's nonce comes from its single-use `state` record instead.
        var requireIssuedNonce = true
    }

    /// The signed-in result.
    struct Outcome: Sendable {
        let user: StoredUser
        let session: StoredSession
        let token: SessionToken
        /// Whether the user was made by this sign-in.
        let createdUser: Bool
    }

    /// Issues a single-use nonce for an app's sign-in (`POST /v1/apple/nonce`): the app puts its SHA-256 in the Apple
    /// request and sends it back as `rawNonce`.
    func issueNonce(now: Date = Date()) async throws -> StoredAppleNonce {
        if let wait = nonceIssuance.acquire("") {
            throw ServiceError.appleBusy(retryAfter: wait)
        }
        let nonce = StoredAppleNonce(
            nonce: RandomToken.make(), createdAt: now,
            expiresAt: now.addingTimeInterval(AppleConfiguration.nonceLifetime)
        )
        try await store.insertAppleNonce(nonce)
        return nonce
    }

    /// Verifies the attempt's identity token and signs its Apple ID in: the linked user when there is one, else a
    /// new link to the linking user or to a new user.
    ///
    /// Each identity token signs in once, and only while fresh: its `iat` may be at most
    /// ``AppleConfiguration/tokenMaxAge`` old, its nonce must be one this server issued and has not seen used
    /// (consumed here), and its Apple ID and nonce are recorded until the token expires. Everything refused before
    /// that record changes nothing.
    func signIn(_ attempt: Attempt, now: Date = Date()) async throws -> Outcome {
        guard !attempt.rawNonce.isEmpty else { throw ServiceError.appleNonceRequired }
        let identity = try await identities.verify(attempt.identityToken, rawNonce: attempt.rawNonce)
        guard now.timeIntervalSince(identity.issuedAt) <= configuration.tokenMaxAge else {
            throw ServiceError(
                .appleTokenTooOld,
                "the identity token was issued more than \(Int(configuration.tokenMaxAge)) seconds ago; sign in with Apple again"
            )
        }
        if let expected = attempt.expectedClientID, expected != identity.audience {
            throw ServiceError(
                .appleClientMismatch, "the identity token is for \(identity.audience), not \(expected)")
        }
        let client = try client(for: identity.audience, web: attempt.requireWebClient)
        let existing = try await store.appleLink(subject: identity.subject)
        if existing == nil, attempt.authorizationCode?.isEmpty ?? true { throw ServiceError.appleCodeRequired }
        try await recordUse(of: identity, attempt: attempt, now: now)
        if let existing {
            return try await signInReturning(existing, attempt: attempt, client: client, now: now)
        }
        return try await signInFirst(identity, attempt: attempt, client: client, now: now)
    }

    /// Makes the token single-use: consumes the issued nonce and records the Apple ID and nonce until the token
    /// expires, in one transaction.
    private func recordUse(of identity: AppleIdentity, attempt: Attempt, now: Date) async throws {
        if attempt.requireIssuedNonce, !RandomToken.isWellFormed(attempt.rawNonce) {
            throw ServiceError.appleNonceInvalid
        }
        do {
            try await store.recordAppleTokenUse(
                subject: identity.subject, nonceHash: AppleNonce.hashed(attempt.rawNonce),
                // As long as the verifier would accept the token.
                expiresAt: max(identity.expiresAt, now).addingTimeInterval(Self.clockLeeway),
                consumingNonce: attempt.requireIssuedNonce ? attempt.rawNonce : nil, now: now
            )
        } catch {
            throw error.meaning([
                .conflict: ServiceError(
                    .appleTokenReplayed, "this identity token has signed in already; sign in with Apple again"),
                .notFound: ServiceError.appleNonceInvalid,
                .expired: ServiceError(
                    .appleNonceExpired, "the nonce from \(APIPaths.Apple.nonce) has expired; get a new one"),
            ])
        }
    }

    /// A linked Apple ID: a new session for its user, and the new refresh token when a code came with it.
    private func signInReturning(_ existing: StoredAppleLink, attempt: Attempt, client: AppleClientID, now: Date)
        async throws -> Outcome
    {
        if let linking = attempt.linkingUserID, linking != existing.userID {
            throw ServiceError.appleLinkedToAnotherUser
        }
        let refreshToken = try await exchange(attempt.authorizationCode, client: client, subject: existing.subject)
        let (session, token) = sessions.issue(for: existing.userID, verified: true, client: attempt.client, now: now)
        let sealed = try seal(refreshToken, subject: existing.subject)
        try await audit.recording([audit.event(.signInSucceeded, user: existing.userID, detail: "apple", now: now)]) {
            () async throws(StoreError) in
            try await store.recordAppleSignIn(
                subject: existing.subject, sealedRefreshToken: sealed, clientID: client.rawValue, session: session)
        }
        guard let user = try await store.user(id: existing.userID) else {
            throw StoreError(.notFound, "the user does not exist")
        }
        return Outcome(user: user, session: session, token: token, createdUser: false)
    }

    /// An Apple ID seen for the first time: linked to the linking user, or to a new user, with the user (when new),
    /// the link and the session written in one transaction.
    private func signInFirst(_ identity: AppleIdentity, attempt: Attempt, client: AppleClientID, now: Date) async throws
        -> Outcome
    {
        guard let code = attempt.authorizationCode, !code.isEmpty else { throw ServiceError.appleCodeRequired }
        let newUser: StoredUser?
        let user: StoredUser
        if let linking = attempt.linkingUserID {
            guard let existingUser = try await store.user(id: linking) else {
                throw ServiceError(.sessionInvalid, "the signed-in user no longer exists")
            }
            (user, newUser) = (existingUser, nil)
        } else {
            user = try await makeUser(identity: identity, attempt: attempt, now: now)
            newUser = user
        }
        let refreshToken = try await exchange(code, client: client, subject: identity.subject)
        let (session, token) = sessions.issue(for: user.id, verified: true, client: attempt.client, now: now)
        let link = StoredAppleLink(
            subject: identity.subject, userID: user.id, clientID: client.rawValue,
            sealedRefreshToken: try seal(refreshToken, subject: identity.subject),
            email: identity.email ?? attempt.email, isPrivateEmail: identity.isPrivateEmail ?? false, createdAt: now,
            // Only Apple's own word verifies an email: one the client sent (attempt.email) never is.
            emailVerified: identity.email != nil && identity.emailVerified == true
        )
        try await commit(link, creating: newUser, session: session)
        return Outcome(user: user, session: session, token: token, createdUser: newUser != nil)
    }

    /// Stores a new link. A failed commit leaves the new authorization unrevoked on purpose: revoking a token ends the
    /// Apple ID's whole authorization of the app, which a concurrent sign-in of the same Apple ID may just have stored.
    private func commit(_ link: StoredAppleLink, creating user: StoredUser?, session: StoredSession) async throws {
        do {
            var events: [AuditEvent] = []
            if let user { events.append(audit.event(.accountCreated, user: user.id, detail: "apple")) }
            events.append(audit.event(.appleLinked, user: link.userID))
            events.append(audit.event(.signInSucceeded, user: link.userID, detail: "apple"))
            try await audit.recording(events) { () async throws(StoreError) in
                try await store.commitAppleLink(link, creating: user, session: session)
            }
        } catch {
            // A conflict: linked by a concurrent sign-in, or the new user's name was just taken.
            if error.code == .conflict, try await store.appleLink(subject: link.subject) != nil {
                throw ServiceError.appleLinkedToAnotherUser
            }
            throw error
        }
    }

    /// The client an identity token's audience names: an app (bundle ID) or the web flow (Services ID).
    private func client(for audience: String, web: Bool) throws -> AppleClientID {
        if let webClient = configuration.web, webClient.servicesID.rawValue == audience {
            return .web(webClient.servicesID)
        }
        guard !web, let bundleID = configuration.bundleIDs.first(where: { $0.rawValue == audience }) else {
            throw AppleSignInError(
                .audienceMismatch, "the identity token is for \(audience), not for this flow's client")
        }
        return .app(bundleID)
    }

    /// Exchanges the authorization code with the client it was issued to and returns the refresh token. The identity
    /// token Apple returns must be for the same user.
    private func exchange(_ code: String?, client: AppleClientID, subject: String) async throws -> String? {
        guard let code, !code.isEmpty else { return nil }
        let response: AppleTokenResponse
        switch client {
        case .app(let bundleID):
            response = try await tokens.exchange(AppAuthorizationCode(code: code, bundleID: bundleID))
        case .web(let servicesID):
            guard let web = configuration.web else { throw ServiceError.appleWebFlowDisabled }
            response = try await tokens.exchange(
                WebAuthorizationCode(code: code, servicesID: servicesID, redirectURI: web.redirectURI))
        }
        if let idToken = response.idToken {
            let exchanged = try await identities.verify(idToken, rawNonce: nil)
            guard exchanged.subject == subject else {
                throw ServiceError(
                    .appleCodeMismatch, "the authorization code belongs to another Apple ID than the identity token")
            }
        }
        return response.refreshToken
    }

    private func seal(_ refreshToken: String?, subject: String) throws -> Data? {
        guard let refreshToken else { return nil }
        return Data(try configuration.secrets.seal(Array(refreshToken.utf8), context: Self.sealContext(subject)))
    }

    /// Sealed tokens are bound to their Apple ID: a sealed value moved to another row does not open.
    private static func sealContext(_ subject: String) -> [UInt8] { Array("apple-refresh-token:\(subject)".utf8) }

    /// A new user for a first sign-in: named by the token's email when Apple says it is verified (`email_verified`)
    /// and that name is a valid, free name that looks like no other, else `apple-<random>`; displayed by the name Apple handed the app, else the email.
    private func makeUser(identity: AppleIdentity, attempt: Attempt, now: Date) async throws -> StoredUser {
        let fullName = [attempt.givenName, attempt.familyName].compactMap { $0?.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        var name = "apple-" + Base64URL.encode(RelyingParty.generateChallenge(byteCount: 9))
        if let email = identity.email.map(UsernameProfile.prepared), identity.emailVerified == true,
            UsernameProfile.isAllowed(email),
            try await store.user(named: email) == nil, try await store.user(confusableWith: email) == nil
        {
            name = email
        }
        let validated = try UserNames.validated(name: name, displayName: fullName.isEmpty ? identity.email : fullName)
        return StoredUser(
            userHandle: Data(CeremonyService.makeUserHandle()), name: validated.name,
            displayName: validated.displayName, createdAt: now
        )
    }

    // MARK: Revocation

    /// Verifies one of Apple's server-to-server notifications (the `{"payload": "<JWS>"}` body as it came) and acts on
    /// it (``AppleNotificationHandler``).
    func handleNotification(body: [UInt8]) async throws {
        let notification = try await notifications.verify(body: body)
        try await AppleNotificationHandler(store: store, audit: audit, logger: logger).handle(notification)
    }

    /// Begins the web flow: a single-use state (binding the flow to `linkingUserID`'s account when a browser is signed
    /// in) and the URL of Apple's authorize page.
    func beginWebFlow(_ web: AppleConfiguration.Web, linking linkingUserID: UUID?, now: Date = Date()) async throws
        -> (state: StoredAppleWebState, location: String)
    {
        let state = StoredAppleWebState(
            state: RandomToken.make(), rawNonce: RandomToken.make(), userID: linkingUserID,
            createdAt: now, expiresAt: now.addingTimeInterval(AppleWebFlow.stateLifetime)
        )
        try await store.insertAppleWebState(state)
        let location = AppleWebFlow.authorizeURL(
            endpoints: configuration.endpoints, web: web, state: state.state, rawNonce: state.rawNonce)
        return (state, location)
    }

    /// Takes the web flow's state back, once: unknown or used is 400 `apple.stateInvalid`, expired 400
    /// `apple.stateExpired`.
    func consumeWebState(_ state: String, now: Date = Date()) async throws -> StoredAppleWebState {
        guard RandomToken.isWellFormed(state) else { throw ServiceError.appleStateInvalid }
        do {
            return try await store.consumeAppleWebState(state, now: now)
        } catch {
            throw error.meaning([
                .notFound: ServiceError.appleStateInvalid,
                .expired: ServiceError(.appleStateExpired, "the Sign in with Apple flow took too long; start again"),
            ])
        }
    }

    /// Revokes every Apple authorization of a user at Apple (App Store guideline 5.1.1(v)), before the account is
    /// deleted. A token Apple no longer knows (`invalid_grant`) counts as revoked; any other failure is 502
    /// `apple.revokeFailed` and the account must be kept, so the user can try again.
    func revokeAuthorizations(ofUser userID: UUID) async throws {
        for link in try await store.appleLinks(ofUser: userID) {
            guard let sealed = link.sealedRefreshToken else { continue }
            let refreshToken: String
            do {
                refreshToken = String(
                    decoding: try configuration.secrets.open(Array(sealed), context: Self.sealContext(link.subject)),
                    as: UTF8.self)
            } catch {
                // Sealed under another secrets key: it can never be revoked from here, so it must not block deletion.
                logger.warning("an Apple refresh token cannot be opened (was the secrets key changed?); not revoked")
                continue
            }
            // A bundle ID dropped from the configuration since the sign-in is still the app that holds the token.
            let client = (try? self.client(for: link.clientID, web: false)) ?? .app(AppleBundleID(link.clientID))
            do {
                try await tokens.revoke(refreshToken, client: client)
            } catch  where error.code == .invalidGrant {
                continue
            } catch {
                throw ServiceError(
                    .appleRevokeFailed,
                    "the Sign in with Apple authorization could not be revoked at Apple (\(error.code)); the account is kept, try again"
                )
            }
        }
    }
}
