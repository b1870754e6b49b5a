import Foundation
import Hummingbird
import LatchkeyAPI
import LatchkeyStore

/// The signed-in caller of a request.
struct SignedIn: Sendable {
    let user: StoredUser
    let session: StoredSession
    /// Whether the session came from the cookie (a browser) rather than a Bearer header (an app).
    let viaCookie: Bool
}

/// Issues sessions and finds the session behind a request.
///
/// A request is signed in by `Authorization: Bearer <token>` (apps) or the session cookie (the web); a request with
/// two session cookies is refused (400 `session.ambiguous`). Cross-site requests never reach here:
/// ``CrossOriginProtection`` refuses them for every route.
struct SessionAuthenticator: Sendable {
    let store: any LatchkeyStore
    let lifetime: Duration
    let cookies: SessionCookies
    /// Finds a request's client address, for the network a new session records.
    let clients: ClientAddressResolver
    /// Issues an access token with each sign-in's session, when the server is configured for them.
    var accessTokens: AccessTokenService? = nil

    /// How stale a session's last-seen time may get before a request records it again: one write per session per
    /// interval, not one per request.
    static let lastSeenInterval: TimeInterval = 300

    /// A new session for `userID`, with the token to give the client; `credentialID` is the passkey it is made with
    /// (its removal ends the session). `verified` says whether the user proved who they are in making it (a passkey
    /// with user verification, a password, Sign in with Apple, a new account): sensitive changes need that recent.
    func issue(
        for userID: UUID, credentialID: Data? = nil, verified: Bool, client: SessionClient, now: Date = Date()
    ) -> (session: StoredSession, token: SessionToken) {
        let token = SessionToken.generate()
        let expiresAt = now.addingTimeInterval(TimeInterval(lifetime.components.seconds))
        return (
            StoredSession(
                tokenHash: token.hash, userID: userID, createdAt: now, expiresAt: expiresAt, credentialID: credentialID,
                verifiedAt: verified ? now : nil, device: client.device, network: client.network),
            token
        )
    }

    /// The client of `request`, as a new session records it.
    func client(of request: Request, context: ServerRequestContext) -> SessionClient {
        SessionClient(request, context: context, clients: clients)
    }

    /// The sign-in answer of every way in (passkeys, Sign in with Apple): the ``SessionResponse`` body for apps, and
    /// the session cookie for browsers.
    ///
    /// `methods` says how the user signed in (the access token's `amr`): `hwk` or `swk` (a device-bound or a synced
    /// passkey), `pwd`, `apple`.
    func signedInResponse(
        user: StoredUser, session: StoredSession, token: SessionToken, methods: [String],
        status: HTTPResponse.Status = .ok, signals: CredentialSignals? = nil,
        passkeyUpgrade: RegistrationOptionsResponse? = nil
    ) async throws -> Response {
        let accessToken = try await accessTokens?.issue(for: user, session: session, methods: methods)
        let body = SessionResponse(
            session: .init(token: token.text, expiresAt: session.expiresAt), user: user.profile, signals: signals,
            passkeyUpgrade: passkeyUpgrade, accessToken: accessToken
        )
        var response = try Response.json(body, status: status)
        response.setCookie(cookies.session(token, expiresAt: session.expiresAt))
        return response
    }

    /// The sign-in answer of a passkey ceremony: the session response with the account's signals, and the cookie.
    func signedInResponse(_ outcome: CeremonyOutcome, ceremonies: CeremonyService, status: HTTPResponse.Status)
        async throws -> Response
    {
        guard let session = outcome.session, let token = outcome.token else { throw APIError.internal }
        return try await signedInResponse(
            user: outcome.user, session: session, token: token,
            methods: [outcome.credential.backupEligible ? "swk" : "hwk"], status: status,
            signals: try await ceremonies.signals(for: outcome.user, credentials: outcome.accountCredentials)
        )
    }

    /// The caller, or nil when the request carries no session at all. An unknown or expired token, a deleted
    /// user, or two session cookies throw.
    func signedIn(_ request: Request, now: Date = Date()) async throws -> SignedIn? {
        let presented: (text: Substring, viaCookie: Bool)
        if let authorization = request.headers[.authorization] {
            guard let token = Request.bearerCredential(in: authorization) else {
                throw ServiceError(.sessionInvalid, "the Authorization header must be 'Bearer <token>'")
            }
            presented = (token.drop { $0 == " " }, false)
        } else {
            let values = cookies.sessionValues(in: request).filter { !$0.isEmpty }
            guard let value = values.first else { return nil }
            guard values.count == 1 else {
                throw ServiceError(
                    .sessionAmbiguous, "the request carries more than one session cookie")
            }
            presented = (value, true)
        }
        guard let token = SessionToken(presented: presented.text),
            let session = try await store.session(tokenHash: token.hash, now: now),
            let user = try await store.user(id: session.userID)
        else {
            throw ServiceError(
                .sessionInvalid, "the session is unknown or has expired; sign in again")
        }
        if now.timeIntervalSince(session.lastSeenAt ?? session.createdAt) >= Self.lastSeenInterval {
            // Advisory (the devices list): a busy database does not fail the request over it; the next one records it.
            try? await store.markSessionSeen(tokenHash: session.tokenHash, at: now)
        }
        return SignedIn(user: user, session: session, viaCookie: presented.viaCookie)
    }

    /// The caller; throws 401 `session.required` when the request carries no session.
    func require(_ request: Request) async throws -> SignedIn {
        guard let signedIn = try await signedIn(request) else { throw APIError.sessionRequired }
        return signedIn
    }
}
