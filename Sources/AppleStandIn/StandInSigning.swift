/// How the stand-in signs a token it mints: properly, or wrong in one specific way.
public enum StandInSigning: Sendable, Equatable {
    /// RS256 with the currently active published key, its `kid` in the header (what Apple does).
    case apple
    /// RS256 with the published key `kid`.
    case key(kid: String)
    /// `alg: none` and an empty signature.
    case unsigned
    /// `alg: HS256`, HMAC-SHA256 keyed with the active key's public key (PEM) — the algorithm-confusion attack.
    case hmacWithPublicKey
    /// RS256 with a key Apple never published, under a `kid` nobody knows.
    case unknownKey
    /// RS256 signed by an unpublished key but naming the active published `kid`.
    case wrongKey
    /// Signed properly, then the payload swapped for one with `sub` changed.
    case tamperedPayload
    /// A valid RS256 signature, but the header claims this algorithm (e.g. `RS512`, `PS256`, `ES256`).
    case headerAlgorithm(String)
}
