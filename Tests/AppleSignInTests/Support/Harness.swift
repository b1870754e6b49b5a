import AppleSignIn
import AppleStandIn
import Crypto
import Foundation

/// A running stand-in for Apple and the library pieces wired to it, all on one test clock.
struct Harness: Sendable {
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"
    static let bundleID = AppleBundleID("dev.latchkey.app")
    static let servicesID = AppleServicesID("dev.latchkey.web")
    static let redirectURI = "https://latchkey.dev/v1/apple/callback"
    static let clientIDs: Set<String> = [bundleID.rawValue, servicesID.rawValue]

    let standIn: AppleStandIn
    let clock: TestClock
    let teamKey: P256.Signing.PrivateKey
    let keys: AppleKeyCache
    let verifier: AppleIdentityTokenVerifier
    let notifications: AppleNotificationVerifier
    let tokens: AppleTokenClient

    /// Starts a stand-in and runs `body` with a harness around it.
    static func run(
        policy: AppleKeyCache.Policy = .init(), signingKeyCount: Int = 3,
        _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let teamKey = P256.Signing.PrivateKey()
        let configuration = AppleStandIn.Configuration(
            teamID: teamID, keyID: keyID, teamKey: teamKey.publicKey,
            signingKeyCount: signingKeyCount, now: clock.closure)
        try await AppleStandIn.withRunning(configuration) { standIn in
            let keys = AppleKeyCache(
                source: AppleKeysEndpoint(endpoints: standIn.endpoints), policy: policy, now: clock.closure)
            let rules = AppleClaimRules(clientIDs: clientIDs, leeway: 30)
            let signer = AppleClientSecretSigner(teamID: teamID, keyID: keyID, privateKey: teamKey)
            let harness = Harness(
                standIn: standIn, clock: clock, teamKey: teamKey, keys: keys,
                verifier: AppleIdentityTokenVerifier(keys: keys, rules: rules, now: clock.closure),
                notifications: AppleNotificationVerifier(keys: keys, rules: rules, now: clock.closure),
                tokens: AppleTokenClient(
                    endpoints: standIn.endpoints,
                    secrets: AppleClientSecretCache(signer: signer, now: clock.closure))
            )
            try await body(harness)
        }
    }

    /// Mints a valid identity token for the app with `rawNonce`, after `edit` changes its claims.
    func identityToken(
        subject: String = "001234.abcdef.1234", rawNonce: String? = "raw-nonce-1",
        signing: StandInSigning = .apple, edit: (inout StandInClaims) -> Void = { _ in }
    ) async throws -> String {
        var claims = standIn.identityClaims(
            subject: subject, audience: Self.bundleID.rawValue, rawNonce: rawNonce,
            email: "abc@privaterelay.appleid.com", isPrivateEmail: true)
        edit(&claims)
        return try await standIn.mint(claims, signing: signing)
    }
}

/// Runs `body` and returns the AppleSignInError code it threw, or nil if it threw none.
func errorCode(_ body: () async throws -> Void) async -> AppleSignInError.Code? {
    do {
        try await body()
        return nil
    } catch let error as AppleSignInError {
        return error.code
    } catch {
        return AppleSignInError.Code(rawValue: "unexpected: \(error)")
    }
}
