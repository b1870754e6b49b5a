import Crypto
import Foundation

/// A client secret: an ES256 JWT signed with the team's `.p8` key, sent as `client_secret` to Apple's token and
/// revoke endpoints. Its ``description`` never shows the value.
public struct AppleClientSecret: Sendable, CustomStringConvertible {
    /// The JWT. Treat as a credential: never log it.
    public let value: String
    /// The client ID it authenticates (its `sub`).
    public let clientID: String
    /// Its `exp`.
    public let expiresAt: Date

    /// A description that never shows the secret.
    public var description: String {
        "AppleClientSecret(clientID: \(clientID), expiresAt: \(expiresAt), value: <redacted>)"
    }
}

/// Signs client secrets with the team's private key (the `.p8` file from Apple's developer portal, PKCS#8 PEM).
///
/// Header: `alg` ES256, `kid` the key ID. Claims: `iss` the team ID, `sub` the client ID, `aud`
/// `https://appleid.apple.com`, `iat`, and `exp` at most six months later (Apple's limit, 15 777 000 s).
public struct AppleClientSecretSigner: Sendable, CustomStringConvertible {
    /// Apple's longest accepted lifetime: 15 777 000 seconds (six months).
    public static let maximumLifetime: TimeInterval = 15_777_000

    /// The 10-character team ID.
    public let teamID: String
    /// The 10-character ID of the key.
    public let keyID: String
    private let privateKey: P256.Signing.PrivateKey

    /// The team and key IDs; never the private key.
    public var description: String { "AppleClientSecretSigner(teamID: \(teamID), keyID: \(keyID), key: <redacted>)" }

    /// Makes a signer from a key already in memory.
    public init(teamID: String, keyID: String, privateKey: P256.Signing.PrivateKey) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
    }

    /// Makes a signer from the text of a `.p8` file. Throws `apple.privateKeyInvalid` when it is not a P-256 key in PEM.
    public init(teamID: String, keyID: String, p8 pem: String) throws(AppleSignInError) {
        do {
            self.init(teamID: teamID, keyID: keyID, privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem))
        } catch {
            throw AppleSignInError(.privateKeyInvalid, "the .p8 key is not a PEM PKCS#8 P-256 private key")
        }
    }

    /// Signs a secret for `clientID` valid from `issuedAt` for `lifetime` seconds (at most ``maximumLifetime``).
    public func makeSecret(clientID: String, issuedAt: Date = Date(), lifetime: TimeInterval) throws(AppleSignInError)
        -> AppleClientSecret
    {
        guard lifetime > 0, lifetime <= Self.maximumLifetime else {
            throw AppleSignInError(
                .clientSecretLifetime, "a client secret lives more than 0 s and at most 15777000 s (six months)")
        }
        let iat = Int(issuedAt.timeIntervalSince1970.rounded(.down))
        let exp = iat + Int(lifetime)
        let claims = ClientSecretClaims(iss: teamID, sub: clientID, aud: AppleEndpoints.issuer, iat: iat, exp: exp)
        let header = JWSHeader(alg: "ES256", kid: keyID)
        let key = privateKey
        let token: String
        do {
            token = try CompactJWS.serialize(header: header, payload: encodeJSON(claims)) { input in
                Array(try key.signature(for: input).rawRepresentation)
            }
        } catch {
            throw AppleSignInError(.privateKeyInvalid, "the .p8 key could not sign")
        }
        return AppleClientSecret(
            value: token, clientID: clientID, expiresAt: Date(timeIntervalSince1970: TimeInterval(exp)))
    }
}

/// The claims of a client secret.
public struct ClientSecretClaims: Codable, Sendable, Equatable {
    /// The team ID.
    public var iss: String
    /// The client ID.
    public var sub: String
    /// `https://appleid.apple.com`.
    public var aud: String
    /// Issued at, seconds since 1970.
    public var iat: Int
    /// Expires at, seconds since 1970.
    public var exp: Int

    /// Makes claims.
    public init(iss: String, sub: String, aud: String, iat: Int, exp: Int) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.iat = iat
        self.exp = exp
    }
}

/// Keeps one client secret per client ID and signs a new one when the current one is within `renewBefore` of expiry.
public actor AppleClientSecretCache {
    private let signer: AppleClientSecretSigner
    private let lifetime: TimeInterval
    private let renewBefore: TimeInterval
    private let now: @Sendable () -> Date
    private var secrets: [String: AppleClientSecret] = [:]

    /// Makes a cache. Secrets live `lifetime` seconds (default one day) and are renewed `renewBefore` seconds
    /// (default one hour) before they expire. `now` is the clock.
    public init(
        signer: AppleClientSecretSigner, lifetime: TimeInterval = 86_400, renewBefore: TimeInterval = 3600,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signer = signer
        self.lifetime = lifetime
        self.renewBefore = min(renewBefore, lifetime / 2)
        self.now = now
    }

    /// A secret for `clientID` that stays valid for at least `renewBefore` seconds.
    public func secret(for clientID: String) throws(AppleSignInError) -> AppleClientSecret {
        let time = now()
        if let current = secrets[clientID], current.expiresAt.timeIntervalSince(time) > renewBefore {
            return current
        }
        let fresh = try signer.makeSecret(clientID: clientID, issuedAt: time, lifetime: lifetime)
        secrets[clientID] = fresh
        return fresh
    }
}
