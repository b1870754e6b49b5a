import AppleSignIn
import Crypto
import Foundation

/// Checks a client secret the way Apple does: an ES256 JWS under the team's key (`kid` = key ID), `iss` the team ID,
/// `sub` the `client_id`, `aud` Apple, not expired, not issued in the future, at most six months long.
struct ClientSecretCheck: Sendable {
    let teamID: String
    let keyID: String
    let teamKey: P256.Signing.PublicKey

    func check(_ secret: String, clientID: String, now: Date) -> Bool {
        guard let jws = try? CompactJWS(secret), jws.header.alg == "ES256", jws.header.kid == keyID,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
            teamKey.isValidSignature(signature, for: jws.signingInput),
            let claims = try? JSONDecoder().decode(ClientSecretClaims.self, from: Data(jws.payload))
        else { return false }
        let time = Int(now.timeIntervalSince1970)
        return claims.iss == teamID && claims.sub == clientID && claims.aud == AppleEndpoints.issuer
            && claims.exp > time && claims.iat <= time + 60
            && claims.exp - claims.iat <= Int(AppleClientSecretSigner.maximumLifetime)
    }
}
