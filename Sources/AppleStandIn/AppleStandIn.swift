import AppleSignIn
import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A faithful local stand-in for Apple's Sign in with Apple endpoints, serving real HTTP on loopback:
///
/// - `GET /auth/keys`: a JWKS of several RS256 keys; ``rotateKeys(retireOldest:)`` publishes a new one.
/// - `POST /auth/token`: checks the client secret (ES256 under the team key, claims), redeems single-use codes
///   (`invalid_grant` on reuse) and refresh tokens, and returns real RS256-signed identity tokens.
/// - `POST /auth/revoke`: checks the client secret and revokes the token.
///
/// Tests also mint identity tokens and notifications with any claim or header wrong (``mint(_:signing:)``).
public final class AppleStandIn: Sendable {
    /// Who the stand-in believes the developer is.
    public struct Configuration: Sendable {
        /// The team ID (`iss` of client secrets).
        public var teamID: String
        /// The ID of the team's key (`kid` of client secrets).
        public var keyID: String
        /// The public half of the team's `.p8` key.
        public var teamKey: P256.Signing.PublicKey
        /// How many RS256 keys are published at start.
        public var signingKeyCount: Int
        /// The clock.
        public var now: @Sendable () -> Date

        /// Makes a configuration.
        public init(
            teamID: String, keyID: String, teamKey: P256.Signing.PublicKey, signingKeyCount: Int = 3,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.teamID = teamID
            self.keyID = keyID
            self.teamKey = teamKey
            self.signingKeyCount = signingKeyCount
            self.now = now
        }
    }

    /// The stand-in's base URL, `http://127.0.0.1:<port>`.
    public let baseURL: String
    let keyRing: StandInKeyRing
    let ledger: StandInLedger
    let configuration: Configuration

    private init(port: Int, keyRing: StandInKeyRing, ledger: StandInLedger, configuration: Configuration) {
        self.baseURL = "http://127.0.0.1:\(port)"
        self.keyRing = keyRing
        self.ledger = ledger
        self.configuration = configuration
    }

    /// Endpoints pointing at this stand-in.
    public var endpoints: AppleEndpoints { AppleEndpoints(baseURL: baseURL) }

    /// Starts the stand-in on a free loopback port, runs `body`, and stops it.
    public static func withRunning<Result: Sendable>(
        _ configuration: Configuration,
        _ body: @Sendable (AppleStandIn) async throws -> Result
    ) async throws -> Result {
        let keyRing = try StandInKeyRing(count: configuration.signingKeyCount)
        let ledger = StandInLedger()
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "AppleStandIn")
        logger.logLevel = .warning
        let app = Application(
            router: makeRouter(keyRing: keyRing, ledger: ledger, configuration: configuration),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            do {
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next(), port > 0 else { throw StandInError.notStarted }
                let result = try await body(
                    AppleStandIn(port: port, keyRing: keyRing, ledger: ledger, configuration: configuration))
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                return result
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }

    // MARK: Minting

    /// The claims of a valid identity token for `subject` and `audience`: Apple's issuer, `iat` now, `exp` in ten
    /// minutes, the SHA-256 hex of `rawNonce` when given, and the email claims Apple sends (as strings, as Apple does).
    public func identityClaims(
        subject: String, audience: String, rawNonce: String? = nil,
        email: String? = nil, isPrivateEmail: Bool = false, realUserStatus: Int? = 2
    ) -> StandInClaims {
        let now = Int(configuration.now().timeIntervalSince1970)
        var claims: StandInClaims = [
            "iss": .string(AppleEndpoints.issuer), "aud": .string(audience), "sub": .string(subject),
            "iat": .int(now), "exp": .int(now + 600), "auth_time": .int(now), "nonce_supported": .bool(true),
        ]
        if let rawNonce { claims["nonce"] = .string(AppleNonce.hashed(rawNonce)) }
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = .string("true")
            claims["is_private_email"] = .string(isPrivateEmail ? "true" : "false")
        }
        if let realUserStatus { claims["real_user_status"] = .int(realUserStatus) }
        return claims
    }

    /// The claims of a valid server-to-server notification about `subject` for `audience`.
    public func notificationClaims(
        type: String, subject: String, audience: String, jti: String = UUID().uuidString,
        email: String? = nil, isPrivateEmail: Bool? = nil
    ) -> StandInClaims {
        let now = Int(configuration.now().timeIntervalSince1970)
        var event: [String: ClaimValue] = [
            "type": .string(type), "sub": .string(subject), "event_time": .int(now * 1000),
        ]
        if let email { event["email"] = .string(email) }
        if let isPrivateEmail { event["is_private_email"] = .string(isPrivateEmail ? "true" : "false") }
        let eventJSON = String(decoding: Self.json(event), as: UTF8.self)
        return [
            "iss": .string(AppleEndpoints.issuer), "aud": .string(audience), "iat": .int(now), "exp": .int(now + 600),
            "jti": .string(jti), "events": .string(eventJSON),
        ]
    }

    /// Signs `claims` as a compact JWS, properly or wrong in the way `signing` says.
    public func mint(_ claims: StandInClaims, signing: StandInSigning = .apple) async throws -> String {
        try await keyRing.sign(payload: Self.json(claims), signing: signing)
    }

    /// The body Apple posts to a notification endpoint: `{"payload": "<JWS>"}`.
    public func notificationBody(_ claims: StandInClaims, signing: StandInSigning = .apple) async throws -> [UInt8] {
        Self.json(["payload": try await mint(claims, signing: signing)])
    }

    // MARK: Keys, codes, tokens

    /// Publishes a new signing key and makes it active; with `retireOldest`, withdraws the oldest. Returns the new `kid`.
    @discardableResult
    public func rotateKeys(retireOldest: Bool = false) async throws -> String {
        try await keyRing.rotate(retireOldest: retireOldest)
    }

    /// The published `kid`s, oldest first.
    public var publishedKIDs: [String] { get async { await keyRing.kids } }

    /// How many times `/auth/keys` was requested.
    public var keysRequestCount: Int { get async { await ledger.keysRequests } }

    /// Every token passed to `/auth/revoke` with a valid client secret, in order.
    public var revokedTokens: [String] { get async { await ledger.revokedTokens } }

    /// Makes the next `/auth/token` request answer `status` with `body`, whatever it asks: for replies the real
    /// endpoint logic never gives (`invalid_scope`, a 500 without an OAuth body).
    public func answerNextTokenRequest(status: Int, body: String) async {
        await ledger.scriptTokenReply(status: status, body: Array(body.utf8))
    }

    /// Whether `code` was presented to `/auth/token`: a test's way to see that the server never exchanged it.
    public func isRedeemed(code: String) async -> Bool { await ledger.isRedeemed(code) }

    /// Issues a single-use authorization code (valid five minutes) for `client`, as the user signing in would get.
    /// Web codes carry the `redirectURI` of the authorization request; the identity token returned on exchange
    /// holds `subject`, the nonce hash of `rawNonce` and `email`.
    public func issueCode(
        for client: AppleClientID, subject: String, rawNonce: String? = nil, email: String? = nil,
        redirectURI: String? = nil
    ) async -> String {
        let identity = identityClaims(subject: subject, audience: client.rawValue, rawNonce: rawNonce, email: email)
        return await ledger.issue(
            code: .init(
                client: client, redirectURI: redirectURI, identity: identity,
                expiresAt: configuration.now().addingTimeInterval(300)))
    }

    static func json<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }
}
