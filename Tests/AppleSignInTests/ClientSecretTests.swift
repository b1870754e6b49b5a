import AppleSignIn
import Crypto
import Foundation
import Testing

@Suite("Client secret: ES256 JWT from the .p8 key")
struct ClientSecretTests {
    let key = P256.Signing.PrivateKey()
    var signer: AppleClientSecretSigner {
        AppleClientSecretSigner(teamID: "TEAM123456", keyID: "KEY1234567", privateKey: key)
    }

    @Test func hasTheHeaderAndClaimsAppleRequiresAndVerifiesUnderTheTeamKey() throws {
        let issued = Date(timeIntervalSince1970: 1_790_000_000)
        let secret = try signer.makeSecret(clientID: "dev.latchkey.app", issuedAt: issued, lifetime: 86_400)
        let jws = try CompactJWS(secret.value)
        #expect(jws.header == JWSHeader(alg: "ES256", kid: "KEY1234567"))
        let claims = try JSONDecoder().decode(ClientSecretClaims.self, from: Data(jws.payload))
        #expect(
            claims
                == ClientSecretClaims(
                    iss: "TEAM123456", sub: "dev.latchkey.app", aud: "https://appleid.apple.com",
                    iat: 1_790_000_000, exp: 1_790_086_400))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
        #expect(key.publicKey.isValidSignature(signature, for: jws.signingInput))
        #expect(secret.expiresAt == issued.addingTimeInterval(86_400))
        #expect(!secret.description.contains(secret.value))
    }

    @Test func readsAP8File() throws {
        let pem = key.pemRepresentation  // PKCS#8, as Apple's .p8 files are
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let fromFile = try AppleClientSecretSigner(teamID: "T", keyID: "K", p8: pem)
        let jws = try CompactJWS(try fromFile.makeSecret(clientID: "c", lifetime: 60).value)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
        #expect(key.publicKey.isValidSignature(signature, for: jws.signingInput))
    }

    @Test func rejectsAKeyThatIsNotAP256PEM() {
        #expect(throws: AppleSignInError.self) { try AppleClientSecretSigner(teamID: "T", keyID: "K", p8: "not a key") }
        do {
            _ = try AppleClientSecretSigner(
                teamID: "T", keyID: "K", p8: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
            Issue.record("accepted a bad key")
        } catch {
            #expect(error.code == .privateKeyInvalid)
        }
    }

    @Test(arguments: [0, -1, 15_777_001, 31_536_000] as [Double])
    func rejectsLifetimesOutsideSixMonths(lifetime: Double) {
        do {
            _ = try signer.makeSecret(clientID: "c", lifetime: lifetime)
            Issue.record("accepted lifetime \(lifetime)")
        } catch {
            #expect(error.code == .clientSecretLifetime)
        }
    }

    @Test func acceptsExactlySixMonths() throws {
        let secret = try signer.makeSecret(
            clientID: "c", issuedAt: Date(timeIntervalSince1970: 0), lifetime: 15_777_000)
        #expect(secret.expiresAt == Date(timeIntervalSince1970: 15_777_000))
    }

    @Test func theCacheReusesASecretAndRenewsItBeforeExpiry() async throws {
        let clock = TestClock()
        let cache = AppleClientSecretCache(signer: signer, lifetime: 86_400, renewBefore: 3600, now: clock.closure)
        let first = try await cache.secret(for: "dev.latchkey.app")
        clock.advance(3600)
        #expect(try await cache.secret(for: "dev.latchkey.app").value == first.value)
        #expect(try await cache.secret(for: "dev.latchkey.web").value != first.value)
        clock.advance(86_400 - 3600 - 3000)  // 3000 s left: inside the renewal window
        let renewed = try await cache.secret(for: "dev.latchkey.app")
        #expect(renewed.value != first.value)
        #expect(renewed.expiresAt == clock.now.addingTimeInterval(86_400).roundedDownToSecond)
    }
}

extension Date {
    var roundedDownToSecond: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
